package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The label that says which replica owns a Kustomization, written by its owner when it starts to
 * reconcile it (once per handoff, not per reconcile): {@code kubectl get ks -o wide} shows it as
 * REPLICA, and label-selected informers can follow it. Beside it, an annotation names the owner's
 * group ({@code <Lease namespace>/<group>}): a replica of another group (a second installation by
 * mistake) leaves the Kustomization alone while the owner's Lease is live (seen to change within
 * its duration, on this process's clock: {@link ForeignLeases}), and says so in a Warning Event on
 * it.
 */
final class ReplicaLabel {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaLabel.class);

  private final KubernetesClient client;
  private final String replica;
  private final String group;
  private final Clock clock;
  private final Set<String> told = ConcurrentHashMap.newKeySet();
  private final ShardEvents events;
  private final ForeignLeases foreign;

  ReplicaLabel(
      KubernetesClient client,
      String replica,
      String leaseNamespace,
      String group,
      Clock clock,
      LongSupplier nanoClock) {
    this.client = client;
    this.foreign =
        new ForeignLeases(
            (namespace, name) -> client.leases().inNamespace(namespace).withName(name).get(),
            nanoClock);
    this.events = new ShardEvents(client);
    this.replica = replica;
    this.group = leaseNamespace + "/" + group;
    this.clock = clock;
  }

  /**
   * Labels {@code object} with this replica unless it already is; false (nothing written) when a
   * live replica of another group owns it.
   */
  boolean mark(HasMetadata object) {
    Map<String, String> labels =
        Optional.ofNullable(object.getMetadata().getLabels()).orElse(Map.of());
    Map<String, String> annotations =
        Optional.ofNullable(object.getMetadata().getAnnotations()).orElse(Map.of());
    String ownerGroup = annotations.get(ShardOptions.GROUP_LABEL);
    String owner = labels.get(ShardOptions.REPLICA_LABEL);
    if (ownerGroup != null && !group.equals(ownerGroup) && owner != null) {
      Optional<String> refusal = otherGroupHolds(ownerGroup, owner);
      if (refusal.isPresent()) {
        refuse(object, refusal.get());
        return false;
      }
    } else if (replica.equals(owner) && group.equals(ownerGroup)) {
      return true;
    }
    told.remove(key(object));
    try {
      client
          .resource(object)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\""
                  + ShardOptions.REPLICA_LABEL
                  + "\":\""
                  + replica
                  + "\"},\"annotations\":{\""
                  + ShardOptions.GROUP_LABEL
                  + "\":\""
                  + group
                  + "\"}}}");
    } catch (KubernetesClientException e) {
      // only a view of ownership: the reconcile goes on, the next one tries again
      LOG.debug(
          "could not label {} with its replica: HTTP {}",
          object.getMetadata().getName(),
          e.getCode());
    }
    return true;
  }

  /** Why the owner in another group still holds it, if it does: its Lease is renewed. */
  private Optional<String> otherGroupHolds(String ownerGroup, String owner) {
    int slash = ownerGroup.indexOf('/');
    if (slash <= 0) {
      return Optional.empty(); // not written by a replica: taken over
    }
    String namespace = ownerGroup.substring(0, slash);
    String name = ShardOptions.REPLICA_LEASE_PREFIX + owner;
    String who = "replica '" + owner + "' of group '" + ownerGroup + "'";
    boolean live;
    try {
      live = foreign.live(namespace, name);
    } catch (KubernetesClientException e) {
      // Safe side: an owner whose Lease cannot be read is taken for live.
      return Optional.of(
          who + " owns it, and its Lease could not be read (HTTP " + e.getCode() + ")");
    }
    return live
        ? Optional.of(who + " owns it and renews its Lease " + namespace + "/" + name)
        : Optional.empty();
  }

  private void refuse(HasMetadata object, String why) {
    if (!told.add(key(object))) {
      return;
    }
    String message =
        why
            + ": replica '"
            + replica
            + "' of group '"
            + group
            + "' leaves it alone (two installations of Capstan watch the same Kustomizations?)";
    LOG.warn("{} {}: {}", object.getKind(), key(object), message);
    events.warnOn(object, ShardEvents.Reason.OWNED_BY_ANOTHER_GROUP, message, clock.instant());
  }

  private static String key(HasMetadata object) {
    return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
  }
}
