package dev.capstan.applier.diff;

import dev.capstan.applier.apply.ClusterAccess;
import dev.capstan.applier.apply.DesiredObject;
import dev.capstan.applier.apply.FieldOwnership;
import dev.capstan.applier.apply.LiveObjects;
import dev.capstan.applier.apply.RejectedException;
import dev.capstan.applier.apply.RevisionValidator;
import dev.capstan.applier.apply.RevisionValidator.Validated;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.diff.ObjectDiff.Change;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Shows what applying a revision would change: each object's server-side dry-run result against its
 * live state. Objects that would only be written because of ownership are not changes.
 */
public final class Differ {

  private final ClusterAccess cluster;

  public Differ(ClusterAccess cluster) {
    this.cluster = cluster;
  }

  public DiffReport diff(
      List<GenericKubernetesResource> objects, Owner owner, String defaultNamespace) {
    Validated validated =
        RevisionValidator.validate(objects, cluster.catalog()::find, owner, defaultNamespace);
    if (!validated.valid()) {
      return new DiffReport(
          validated.problems().stream()
              .map(p -> new ObjectDiff(p.ref(), Change.FAILED, p.reason()))
              .toList());
    }
    List<DesiredObject> listable =
        validated.desired().stream()
            .filter(d -> !validated.awaitingCrd().contains(d.ref()))
            .toList();
    LiveObjects live = LiveObjects.read(cluster.client(), listable, cluster.executor());
    Set<ObjectRef> notDryRunnable = validated.notYetDryRunnable(live);
    List<CompletableFuture<ObjectDiff>> diffs = new ArrayList<>();
    for (DesiredObject d : validated.desired()) {
      boolean undryable = notDryRunnable.contains(d.ref());
      diffs.add(
          CompletableFuture.supplyAsync(
              () -> diffOne(d, live.get(d.ref()), undryable), cluster.executor()));
    }
    return new DiffReport(diffs.stream().map(CompletableFuture::join).toList());
  }

  private ObjectDiff diffOne(DesiredObject d, GenericKubernetesResource live, boolean undryable) {
    ObjectRef ref = d.ref();
    if (FieldOwnership.isUnchanged(live, d)) {
      return new ObjectDiff(ref, Change.UNCHANGED, "");
    }
    Map<String, Object> after;
    if (undryable) {
      // Its CRD or Namespace is created by this revision, so the server cannot dry-run it yet.
      after = DesiredObject.asMap(d.object());
    } else {
      try {
        after = DesiredObject.asMap(cluster.calls().apply(d, true));
      } catch (RejectedException e) {
        return new ObjectDiff(ref, Change.FAILED, e.rejection().reason());
      }
    }
    Map<String, Object> before = live == null ? null : DesiredObject.asMap(live);
    String text = DiffRenderer.render(ref, before, after);
    if (live == null) {
      return new ObjectDiff(ref, Change.CREATED, text);
    }
    return new ObjectDiff(ref, text.isEmpty() ? Change.UNCHANGED : Change.CHANGED, text);
  }
}
