package dev.capstan.cli.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real jar, run as a local process with the installed ServiceAccount's token (what the
 * in-cluster Deployment would do, without an image): it reconciles through the install's RBAC,
 * serves its probes and metrics, keeps to its shard, and hands over leadership when killed.
 */
@ExtendWith(KubernetesCluster.class)
class EngineProcessIT {
  private static final String SHARD_LABEL = "capstan.dev/test-shard";
  private static Path kubeconfig;
  private final List<CapstanProcess> processes = new ArrayList<>();

  @BeforeAll
  static void install(KubernetesClient admin, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    Installation.apply(admin, access);
    kubeconfig =
        ServiceAccountIdentity.of(admin, Installation.SYSTEM, "capstan")
            .writeKubeconfig(dir.resolve("capstan-sa.kubeconfig"));
  }

  @AfterAll
  static void uninstall(KubernetesClient admin) {
    Installation.remove(admin);
  }

  @AfterEach
  void stopEngines(KubernetesClient admin, TestNamespace ns) throws Exception {
    CapstanProcess.stopAll(processes, admin, ns.name());
  }

  private CapstanProcess engine(Path dir, String podName, String shard, String... more)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of("--leader-elect", "--watch-label-selector", SHARD_LABEL + "=" + shard));
    args.addAll(List.of(more));
    CapstanProcess process = CapstanProcess.start(kubeconfig, dir, podName, args);
    processes.add(process);
    return process;
  }

  private static String shard() {
    return Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20, 1 << 30), 36);
  }

  private static GenericKubernetesResource resource(
      String apiVersion,
      String kind,
      TestNamespace ns,
      String name,
      Map<String, String> labels,
      Map<String, Object> spec) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(apiVersion);
    resource.setKind(kind);
    resource.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).withLabels(labels).build());
    resource.getAdditionalProperties().put("spec", spec);
    return resource;
  }

  private static void createSource(
      KubernetesClient admin,
      TestNamespace ns,
      String name,
      String url,
      Map<String, String> labels) {
    admin
        .resource(
            resource(
                "source.capstan.dev/v1",
                "GitRepository",
                ns,
                name,
                labels,
                Map.of("url", url, "interval", "1m", "ref", Map.of("branch", "main"))))
        .create();
  }

  private static void createKustomization(
      KubernetesClient admin,
      TestNamespace ns,
      String name,
      String source,
      String path,
      Map<String, String> labels) {
    admin
        .resource(
            resource(
                "kustomize.capstan.dev/v1",
                "Kustomization",
                ns,
                name,
                labels,
                Map.of(
                    "interval",
                    "1m",
                    "prune",
                    true,
                    "path",
                    path,
                    "targetNamespace",
                    ns.name(),
                    "sourceRef",
                    Map.of("kind", "GitRepository", "name", source))))
        .create();
  }

  private static boolean ready(KubernetesClient admin, TestNamespace ns, String name) {
    Kustomization ks =
        admin.resources(Kustomization.class).inNamespace(ns.name()).withName(name).get();
    return ks != null
        && ks.getStatus() != null
        && ks.getStatus().conditions() != null
        && ks.getStatus().conditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static String configMap(String name) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name
        + "\ndata:\n  greeting: hello\n";
  }

  @Test
  void reconcilesAsTheInstalledServiceAccountAndServesProbesMetricsEventsAndWebhooks(
      KubernetesClient admin, TestNamespace ns, @TempDir Path dir) throws Exception {
    String shard = shard();
    Map<String, String> labels = Map.of(SHARD_LABEL, shard);
    Path secret = Files.writeString(dir.resolve("hook-secret"), "process-hmac-key\n");
    Path receivers =
        Files.writeString(
            dir.resolve("receivers.yaml"),
            """
            receivers:
            - name: repo
              type: generic
              secretFile: %s
              resources: [{namespace: %s, name: repo}]
            """
                .formatted(secret, ns.name()));
    try (LocalGitRepository git = new LocalGitRepository(dir.resolve("repo"))) {
      git.commit(
          Map.of("app/configmap.yaml", configMap("from-git"), "app/old.yaml", configMap("old")));
      createSource(admin, ns, "repo", git.url(), labels);
      createKustomization(admin, ns, "app", "repo", "./app", labels);
      createKustomization(
          admin, ns, "other-shard", "repo", "./app", Map.of(SHARD_LABEL, "someone-else"));

      CapstanProcess engine =
          engine(dir, "capstan-a", shard, "--webhook-config", receivers.toString());
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> ready(admin, ns, "app") || !engine.isAlive());
      assertTrue(engine.isAlive(), () -> "the engine exited:\n" + engine.logTail());
      assertNotNull(admin.configMaps().inNamespace(ns.name()).withName("from-git").get());
      assertNotNull(admin.configMaps().inNamespace(ns.name()).withName("old").get());

      assertEquals(200, engine.status("/healthz"));
      HttpResponse<String> readyz = engine.get("/readyz");
      assertEquals(200, readyz.statusCode(), readyz.body());
      assertTrue(readyz.body().startsWith("ok: leading"), readyz.body());
      String metrics = engine.get("/metrics").body();
      assertTrue(
          metrics.contains(
              "capstan_reconcile_duration_seconds_count{kind=\"Kustomization\",name=\"app\","
                  + "namespace=\""
                  + ns.name()
                  + "\",result=\"success\"}"),
          metrics);
      assertTrue(metrics.contains("capstan_leader{lease=\"capstan-leader-"), metrics);
      assertTrue(
          metrics.contains("capstan_workqueue_depth{controller=\"Kustomization\"}"), metrics);
      assertTrue(metrics.contains("jvm_memory_used_bytes"), metrics);

      Kustomization other =
          admin.resources(Kustomization.class).inNamespace(ns.name()).withName("other-shard").get();
      // Left alone: only the CRD's default (observedGeneration -1), nothing the engine wrote.
      assertEquals(
          Long.valueOf(-1),
          other.getStatus().observedGeneration(),
          "another shard's was reconciled");
      assertNull(other.getStatus().conditions(), "a Kustomization of another shard is left alone");

      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  hasEvent(
                          admin,
                          ns,
                          "app",
                          "ReconciliationSucceeded",
                          "Applied revision: main@sha1:")
                      && hasEvent(admin, ns, "repo", "NewArtifact", "Stored artifact"));

      // A push, announced through the webhook receiver, is fetched and applied at once (the
      // interval is a minute): the removed file's object is pruned and reported.
      String commit = git.remove("app/old.yaml");
      String revision = "main@sha1:" + git.head();
      byte[] body = "{\"after\":\"".concat(commit).concat("\"}").getBytes(StandardCharsets.UTF_8);
      HttpResponse<String> unsigned = engine.postWebhook("/hook/repo", body, null);
      assertEquals(401, unsigned.statusCode());
      HttpResponse<String> hook =
          engine.postWebhook(
              "/hook/repo",
              body,
              "sha256=" + HexFormat.of().formatHex(hmacSha256("process-hmac-key", body)));
      assertEquals(200, hook.statusCode(), hook.body());
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () ->
                  revision.equals(
                      admin
                          .resources(Kustomization.class)
                          .inNamespace(ns.name())
                          .withName("app")
                          .get()
                          .getStatus()
                          .lastAppliedRevision()));
      assertNull(admin.configMaps().inNamespace(ns.name()).withName("old").get(), "pruned");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  hasEvent(
                      admin,
                      ns,
                      "app",
                      "Pruned",
                      "Pruned 1 object: " + ns.name() + "_old__ConfigMap"));
      assertTrue(
          engine
              .get("/metrics")
              .body()
              .contains(
                  "capstan_webhook_requests_total{outcome=\"rejected\","
                      + "reason=\"missing_signature\",type=\"generic\"} 1.0"));
    }
  }

  private static boolean hasEvent(
      KubernetesClient admin, TestNamespace ns, String object, String reason, String messageStart) {
    return admin.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .anyMatch(
            e ->
                object.equals(e.getInvolvedObject().getName())
                    && reason.equals(e.getReason())
                    && e.getMessage() != null
                    && e.getMessage().startsWith(messageStart));
  }

  private static byte[] hmacSha256(String key, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return mac.doFinal(body);
  }

  @Test
  void aStandbyTakesOverWithinTheLeaseDurationWhenTheLeaderIsKilled(
      KubernetesClient admin, TestNamespace ns, @TempDir Path dir) throws Exception {
    String shard = shard();
    Map<String, String> labels = Map.of(SHARD_LABEL, shard);
    try (LocalGitRepository git = new LocalGitRepository(dir.resolve("repo"))) {
      git.commit(
          Map.of("one/configmap.yaml", configMap("one"), "two/configmap.yaml", configMap("two")));
      createSource(admin, ns, "ha-repo", git.url(), labels);
      createKustomization(admin, ns, "one", "ha-repo", "./one", labels);

      CapstanProcess a = engine(dir, "capstan-a", shard);
      CapstanProcess b = engine(dir, "capstan-b", shard);
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> ready(admin, ns, "one") || !a.isAlive() || !b.isAlive());
      assertTrue(
          a.isAlive() && b.isAlive(),
          () -> "an engine exited:\n" + a.logTail() + "\n---\n" + b.logTail());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> a.status("/readyz") == 200 && b.status("/readyz") == 200);

      String leaseName = leaseNameOf(a, b);
      Lease lease = admin.leases().inNamespace(Installation.SYSTEM).withName(leaseName).get();
      String holder = lease.getSpec().getHolderIdentity();
      CapstanProcess leader = holder.equals("capstan-a") ? a : b;
      CapstanProcess standby = leader == a ? b : a;
      String standbyName = leader == a ? "capstan-b" : "capstan-a";
      assertTrue(
          standby.get("/readyz").body().startsWith("ok: standing by"),
          standby.get("/readyz").body());

      leader.kill();
      createKustomization(admin, ns, "two", "ha-repo", "./two", labels);
      // Lease duration 15 s, then the standby's controllers start and reconcile.
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> ready(admin, ns, "two") || !standby.isAlive());
      assertTrue(standby.isAlive(), () -> "the standby exited:\n" + standby.logTail());
      assertEquals(
          standbyName,
          admin
              .leases()
              .inNamespace(Installation.SYSTEM)
              .withName(leaseName)
              .get()
              .getSpec()
              .getHolderIdentity());
      assertTrue(
          standby.get("/readyz").body().startsWith("ok: leading"), standby.get("/readyz").body());
      assertNotNull(admin.configMaps().inNamespace(ns.name()).withName("two").get());
    }
  }

  private static String leaseNameOf(CapstanProcess a, CapstanProcess b) {
    for (CapstanProcess p : List.of(a, b)) {
      String body = p.get("/metrics").body();
      int at = body.indexOf("capstan_leader{lease=\"");
      if (at >= 0) {
        int start = at + "capstan_leader{lease=\"".length();
        return body.substring(start, body.indexOf('"', start));
      }
    }
    throw new AssertionError("no capstan_leader metric");
  }
}
