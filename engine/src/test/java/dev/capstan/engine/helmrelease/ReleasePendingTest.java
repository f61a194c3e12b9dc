package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseBuilder;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** No release record is left pending: not by a failure midway, nor by a process that ended. */
class ReleasePendingTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void anExceptionFromThePruneMarksTheRecordFailed() {
    HelmRelease release = ReleaseFakes.release();
    fakes.pruneThrows = true;

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertTrue(
        fakes.records.get(1).release().info().description().contains("the API server went away"));
  }

  @Test
  void aRecordLeftPendingByAnEndedProcessIsMarkedFailedAndTheReleaseGoesOn() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    Release left =
        ReleaseBuilder.builder(
                fakes.records.get(1).release().withStatus(ReleaseStatus.PENDING_UPGRADE))
            .version(2)
            .build();
    fakes.records.put(
        2,
        new ReleaseRecord("apps", ReleaseRecord.secretName(left.name(), 2), "9", Map.of(), left));

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(2).release().status());
    assertTrue(fakes.records.get(2).release().info().description().contains("pending-upgrade"));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(3).release().status());
    assertEquals(ReleaseStatus.SUPERSEDED, fakes.records.get(1).release().status());
  }

  @Test
  void theNewRecordIsDeployedBeforeTheOneItReplacesIsSuperseded() throws Exception {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    release.getMetadata().setGeneration(2L);
    ((ObjectNode) release.getSpec().values()).put("replicaCount", 2);
    fakes.recordLog.clear();

    pipeline.reconcile(release);

    assertEquals(List.of("2 pending-upgrade", "2 deployed", "1 superseded"), fakes.recordLog);
  }
}
