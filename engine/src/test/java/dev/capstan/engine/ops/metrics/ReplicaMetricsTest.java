package dev.capstan.engine.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.shard.ShardCounters;
import dev.capstan.engine.shard.ShardCountersAccess;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReplicaMetricsTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final ReplicaMetrics metrics = new ReplicaMetrics(registry, "capstan-1");

  @Test
  void queueWaitsAreTimedByNamespaceAndReplica() {
    metrics.queueWaited("team-a", Duration.ofMillis(1500));
    metrics.queueWaited("team-a", Duration.ofMillis(500));
    metrics.queueWaited("team-b", Duration.ofMillis(10));

    String text = registry.scrape();
    assertTrue(
        text.contains(
            "capstan_workqueue_wait_seconds_count{namespace=\"team-a\",replica=\"capstan-1\"} 2"),
        text);
    assertTrue(
        text.contains(
            "capstan_workqueue_wait_seconds_sum{namespace=\"team-a\",replica=\"capstan-1\"} 2.0"),
        text);
    assertTrue(text.contains("namespace=\"team-b\",replica=\"capstan-1\"} 1"), text);
  }

  @Test
  void namespacesPastTheCapShareOneSeries() {
    for (int i = 0; i < ReplicaMetrics.NAMESPACES_TAGGED + 50; i++) {
      metrics.queueWaited("team-" + i, Duration.ofMillis(10));
    }
    metrics.queueWaited("team-0", Duration.ofMillis(10));

    String text = registry.scrape();
    assertEquals(
        ReplicaMetrics.NAMESPACES_TAGGED + 1,
        registry.find("capstan.workqueue.wait").timers().size(),
        text);
    assertTrue(text.contains("namespace=\"team-0\",replica=\"capstan-1\"} 2"), text);
    assertTrue(text.contains("namespace=\"_other\",replica=\"capstan-1\"} 50"), text);
    assertFalse(text.contains("namespace=\"team-120\""), text);
  }

  @Test
  void theShareIsReadAtEachScrape() {
    ShardCounters counters = new ShardCounters();
    metrics.share(counters);
    assertTrue(registry.scrape().contains("capstan_shard_owned_slots{replica=\"capstan-1\"} 0.0"));

    ShardCountersAccess.set(counters, 512, 12, 40);

    String text = registry.scrape();
    assertTrue(text.contains("capstan_shard_owned_slots{replica=\"capstan-1\"} 512.0"), text);
    assertTrue(text.contains("capstan_shard_draining_slots{replica=\"capstan-1\"} 12.0"), text);
    assertTrue(
        text.contains("capstan_shard_owned_kustomizations{replica=\"capstan-1\"} 40.0"), text);
    assertTrue(text.contains("capstan_shard_handoffs_total{replica=\"capstan-1\"} 512.0"), text);
  }
}
