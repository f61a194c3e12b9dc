package dev.capstan.health.kstatus;

import dev.capstan.health.status.Condition;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import java.util.Map;

/** API extension kinds: CustomResourceDefinition and APIService. */
final class ApiRules {
  private ApiRules() {}

  /**
   * kstatus CRD rule; once Established, a reported {@code status.storedVersions} must also hold the
   * storage version (kapp-controller proposal).
   */
  static ResourceStatus customResourceDefinition(ObjectView crd) {
    for (Condition c : crd.conditions()) {
      if (c.is("NamesAccepted", "False")) {
        return ResourceStatus.failed(c.reason(), c.message());
      }
      if (c.is("Established", "False") && !c.reason().equals("Installing")) {
        return ResourceStatus.failed(c.reason(), c.message());
      }
      if (c.is("Established", "True")) {
        return storedVersions(crd);
      }
    }
    return ResourceStatus.inProgress("Installing", "Install in progress");
  }

  private static ResourceStatus storedVersions(ObjectView crd) {
    if (!crd.has("status", "storedVersions")) {
      return ResourceStatus.current("CRD is established");
    }
    String storage = storageVersion(crd);
    if (storage != null && !crd.list("status", "storedVersions").contains(storage)) {
      return ResourceStatus.inProgress(
          "StorageVersionNotStored",
          "CRD is established, but status.storedVersions does not list the storage version "
              + storage);
    }
    return ResourceStatus.current("CRD is established");
  }

  private static String storageVersion(ObjectView crd) {
    for (Object version : crd.list("spec", "versions")) {
      if (version instanceof Map<?, ?> v && Boolean.TRUE.equals(v.get("storage"))) {
        return v.get("name") instanceof String name ? name : null;
      }
    }
    return null;
  }

  /** APIService: healthy when its Available condition is True (kapp-controller proposal). */
  static ResourceStatus apiService(ObjectView service) {
    Condition available = service.condition("Available");
    if (available == null) {
      return ResourceStatus.inProgress(
          "AvailableNotReported", "APIService has no Available condition yet");
    }
    if (available.status().equals("True")) {
      return ResourceStatus.current("APIService is Available");
    }
    String message =
        available.message().isEmpty() ? "APIService is not Available" : available.message();
    return ResourceStatus.inProgress(
        available.reason().isEmpty() ? "NotAvailable" : available.reason(), message);
  }
}
