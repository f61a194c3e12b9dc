package dev.capstan.health.kstatus;

import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/**
 * Networking and storage kinds: Service, Ingress and PersistentVolumeClaim. Load-balanced Services
 * and Ingresses wait for an address, as the application readiness proposal asks.
 */
final class ServiceRules {
  private ServiceRules() {}

  static ResourceStatus service(ObjectView service) {
    if (!"LoadBalancer".equals(service.string("ClusterIP", "spec", "type"))) {
      return ResourceStatus.current("Service is ready");
    }
    if (service.string("", "spec", "clusterIP").isEmpty()) {
      return ResourceStatus.inProgress("NoIPAssigned", "Service does not have an IP address");
    }
    if (service.list("status", "loadBalancer", "ingress").isEmpty()) {
      return ResourceStatus.inProgress(
          "NoLoadBalancerAddress", "LoadBalancer Service has no ingress address yet");
    }
    return ResourceStatus.current("Service is ready");
  }

  static ResourceStatus ingress(ObjectView ingress) {
    if (ingress.list("status", "loadBalancer", "ingress").isEmpty()) {
      return ResourceStatus.inProgress(
          "NoLoadBalancerAddress", "Ingress has no load balancer address yet");
    }
    return ResourceStatus.current("Ingress has a load balancer address");
  }

  static ResourceStatus persistentVolumeClaim(ObjectView claim) {
    String phase = claim.string("", "status", "phase");
    if (phase.equals("Bound")) {
      return ResourceStatus.current("PVC is Bound");
    }
    return ResourceStatus.inProgress(
        "NotBound", "PVC is not Bound. phase: " + (phase.isEmpty() ? "unknown" : phase));
  }
}
