package dev.capstan.cli.faults;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.SourceStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What the registry side's OCIRepository and Kustomizations say now, read for its checks. */
final class RegistryStatus {
  private final KubernetesClient admin;
  private final String namespace;
  private final SourceObjects objects;
  private final List<String> kustomizations;

  RegistryStatus(
      KubernetesClient admin,
      String namespace,
      SourceObjects objects,
      List<String> kustomizations) {
    this.admin = admin;
    this.namespace = namespace;
    this.objects = objects;
    this.kustomizations = List.copyOf(kustomizations);
  }

  /** The OCIRepository's Ready condition now, if it has one. */
  Optional<Condition> sourceReady() {
    return objects.ready(OCIRepository.class, RegistrySide.SOURCE);
  }

  /** The last fetch request the OCIRepository handled, if any. */
  Optional<String> lastHandledRequest() {
    return objects
        .status(OCIRepository.class, RegistrySide.SOURCE)
        .map(SourceStatus::lastHandledReconcileAt);
  }

  /** The revision of the OCIRepository's artifact now, if it has one. */
  Optional<String> artifactRevision() {
    return objects.status(OCIRepository.class, RegistrySide.SOURCE).map(SourceStatus::revisionOf);
  }

  /** Each registry side Kustomization's last applied revision (null if none yet). */
  Map<String, String> appliedRevisions() {
    Map<String, String> applied = new TreeMap<>();
    for (String name : kustomizations) {
      Kustomization k =
          admin.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
      applied.put(
          name, k == null || k.getStatus() == null ? null : k.getStatus().lastAppliedRevision());
    }
    return applied;
  }
}
