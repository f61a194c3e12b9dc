package dev.capstan.engine.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MetricsTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Metrics metrics = new Metrics(registry);

  @Test
  void reconcilesAreTimedPerObjectAndResult() {
    metrics.reconciled(
        "Kustomization", "apps", "web", ReconcileOutcome.SUCCESS, Duration.ofMillis(1500));
    metrics.reconciled(
        "Kustomization", "apps", "web", ReconcileOutcome.SUCCESS, Duration.ofMillis(500));
    metrics.reconciled(
        "Kustomization", "apps", "web", ReconcileOutcome.FAILURE, Duration.ofMillis(100));
    String text = registry.scrape();
    assertTrue(
        text.contains(
            "capstan_reconcile_duration_seconds_count{kind=\"Kustomization\",name=\"web\","
                + "namespace=\"apps\",result=\"success\"} 2"),
        text);
    assertTrue(
        text.contains(
            "capstan_reconcile_duration_seconds_sum{kind=\"Kustomization\",name=\"web\","
                + "namespace=\"apps\",result=\"success\"} 2.0"),
        text);
    assertTrue(text.contains("result=\"failure\"} 1"), text);
  }

  @Test
  void appliedPrunedFetchHealthWaitQueueAndWebhooks() {
    metrics.objectsChanged("Kustomization", "apps", "web", 12, 3);
    metrics.fetched("flux-system", "repo", ReconcileOutcome.SUCCESS, Duration.ofMillis(250));
    metrics.healthWaited("apps", "web", ReconcileOutcome.FAILURE, Duration.ofSeconds(30));
    AtomicInteger depth = new AtomicInteger(7);
    metrics.queueDepth("kustomization", depth::get);
    metrics.webhookRequest("github", WebhookOutcome.REJECTED, "bad_signature");
    metrics.webhookRequest("github", WebhookOutcome.REJECTED, "bad_signature");
    metrics.webhookRequest("gitlab", WebhookOutcome.ACCEPTED, "push");
    String text = registry.scrape();
    assertTrue(
        text.contains(
            "capstan_reconcile_objects_applied_objects_sum{kind=\"Kustomization\",name=\"web\","
                + "namespace=\"apps\"} 12.0"),
        text);
    assertTrue(
        text.contains(
            "capstan_reconcile_objects_pruned_objects_sum{kind=\"Kustomization\",name=\"web\","
                + "namespace=\"apps\"} 3.0"),
        text);
    assertTrue(
        text.contains(
            "capstan_source_fetch_duration_seconds_count{kind=\"GitRepository\",name=\"repo\","
                + "namespace=\"flux-system\",result=\"success\"} 1"),
        text);
    assertTrue(
        text.contains(
            "capstan_health_wait_duration_seconds_sum{kind=\"Kustomization\",name=\"web\","
                + "namespace=\"apps\",result=\"failure\"} 30.0"),
        text);
    assertTrue(text.contains("capstan_workqueue_depth{controller=\"kustomization\"} 7.0"), text);
    depth.set(2);
    assertTrue(
        registry.scrape().contains("capstan_workqueue_depth{controller=\"kustomization\"} 2.0"),
        "the gauge reads the queue at each scrape");
    assertTrue(
        text.contains(
            "capstan_webhook_requests_total{outcome=\"rejected\",reason=\"bad_signature\","
                + "type=\"github\"} 2.0"),
        text);
    assertTrue(
        text.contains(
            "capstan_webhook_requests_total{outcome=\"accepted\",reason=\"push\","
                + "type=\"gitlab\"} 1.0"),
        text);
  }

  @Test
  void forgettingAnObjectDropsOnlyItsSeries() {
    metrics.reconciled(
        "Kustomization", "apps", "web", ReconcileOutcome.SUCCESS, Duration.ofMillis(1));
    metrics.objectsChanged("Kustomization", "apps", "web", 1, 0);
    metrics.reconciled(
        "Kustomization", "apps", "db", ReconcileOutcome.SUCCESS, Duration.ofMillis(1));
    metrics.healthWaited("apps", "web", ReconcileOutcome.SUCCESS, Duration.ofMillis(1));
    metrics.fetched("apps", "web", ReconcileOutcome.SUCCESS, Duration.ofMillis(1));
    metrics.forget("Kustomization", "apps", "web");
    String text = registry.scrape();
    assertFalse(text.contains("kind=\"Kustomization\",name=\"web\""), text);
    assertTrue(text.contains("kind=\"Kustomization\",name=\"db\""), text);
    assertTrue(text.contains("kind=\"GitRepository\",name=\"web\""), text);
    metrics.forget("GitRepository", "apps", "web");
    assertFalse(registry.scrape().contains("name=\"web\""), registry.scrape());
  }

  @Test
  void chartRendersAreCountedByKindOnly() {
    metrics.chartRendered("HelmRelease");
    metrics.chartRendered("HelmRelease");
    String text = registry.scrape();
    assertTrue(text.contains("capstan_chart_renders_total{kind=\"HelmRelease\"} 2.0"), text);
  }
}
