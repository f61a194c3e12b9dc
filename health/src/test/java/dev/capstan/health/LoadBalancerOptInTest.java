package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one place Capstan answers differently from kstatus's own cases: a LoadBalancer Service
 * without an address is InProgress (the application-readiness proposal), where kstatus says
 * Current. The entry documented in docs/health-library.md gives kstatus's answer back.
 */
class LoadBalancerOptInTest {
  /** The entry docs/health-library.md gives, verbatim. */
  static final HealthCheckExpr KSTATUS_SERVICE =
      new HealthCheckExpr(
          "v1",
          "Service",
          "!has(spec.type) || spec.type != 'LoadBalancer' || (has(spec.clusterIP) && spec.clusterIP"
              + " != '')",
          null,
          null);

  private static final Map<String, Object> NO_ADDRESS =
      Fixtures.yaml(
          "{apiVersion: v1, kind: Service, metadata: {name: lb}, spec: {type: LoadBalancer,"
              + " clusterIP: 10.0.0.7}, status: {loadBalancer: {}}}");
  private static final Map<String, Object> NO_CLUSTER_IP =
      Fixtures.yaml(
          "{apiVersion: v1, kind: Service, metadata: {name: lb}, spec: {type: LoadBalancer}}");

  @Test
  void byDefaultALoadBalancerWithoutAnAddressIsInProgress() {
    ResourceStatus status =
        HealthEvaluator.create(List.of(), BuiltinLibrary.load(), Fixtures.CLOCK).status(NO_ADDRESS);
    assertEquals(Status.InProgress, status.status());
    assertEquals("NoLoadBalancerAddress", status.reason());
  }

  @Test
  void theDocumentedEntryGivesKstatusAnswer() {
    HealthEvaluator kstatusLike =
        HealthEvaluator.create(List.of(KSTATUS_SERVICE), BuiltinLibrary.load(), Fixtures.CLOCK);
    ResourceStatus status = kstatusLike.status(NO_ADDRESS);
    assertEquals(Status.Current, status.status());
    assertEquals(new DecidedBy.UserCel("v1/Service"), status.decidedBy());
    assertEquals(Status.InProgress, kstatusLike.status(NO_CLUSTER_IP).status());
  }
}
