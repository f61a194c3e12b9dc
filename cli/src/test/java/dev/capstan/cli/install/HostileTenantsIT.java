package dev.capstan.cli.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.capstan.decryption.SopsWriter;
import dev.capstan.source.oci.testing.RawTar;
import dev.capstan.source.oci.testing.SlowHttpServer;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One engine, run as the Deployment runs it (its heap, build workers and build memory read from
 * deploy/install), against tenants that each commit one hostile input of the security audit. Each
 * must end with a clear status within its bound, the engine must stay up (no restart: the same
 * process), and a benign tenant in another namespace must still get a new commit applied within its
 * usual time plus one build's time limit. Hostile tenants stay in place for the cases after theirs,
 * so the later ones run against an engine that is still busy with the earlier ones.
 */
@ExtendWith(KubernetesCluster.class)
class HostileTenantsIT {
  private static final String SHARD_LABEL = "capstan.dev/test-shard";
  private static final String SHARD =
      Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20, 1 << 30), 36);

  /** The engine's time limit of one build. */
  private static final Duration BUILD_LIMIT = Duration.ofSeconds(30);

  /** What each hostile case may take to end, in its own status. */
  private static final Duration CASE_BOUND = Duration.ofSeconds(120);

  private static CapstanProcess engine;
  private static KubernetesClient admin;
  private static String hostile;
  private static String benign;
  private static Path work;
  private static LocalGitRepository benignRepo;
  private static Duration benignUsual;
  private static final List<LocalGitRepository> repos = new ArrayList<>();

  /**
   * The one artifact server the engine is started to allow ({@code --artifact-url-allow-prefix} of
   * its origin): cases that serve an ExternalArtifact's file add a context to it. Any other
   * address, loopback included, stays refused.
   */
  private static HttpServer artifactServer;

  /** A second allowed server, for files whose headers or pace a well-behaved server never sends. */
  private static SlowHttpServer rawServer;

  /** The namespace of the case whose downloads take its fetch slots, once that case made it. */
  private static String slowTenant;

  private static final SopsWriter sops = new SopsWriter();

  @BeforeAll
  static void start(
      KubernetesClient client, ClusterAccess access, TestNamespace ns, @TempDir Path dir)
      throws Exception {
    admin = client;
    hostile = ns.name();
    work = dir;
    benign = hostile + "-benign";
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(benign).endMetadata().build())
        .create();
    Installation.apply(admin, access);
    Path kubeconfig =
        ServiceAccountIdentity.of(admin, Installation.SYSTEM, "capstan")
            .writeKubeconfig(dir.resolve("capstan-sa.kubeconfig"));
    DeploymentLimits limits = DeploymentLimits.read();
    List<String> args = new ArrayList<>(limits.buildArgs());
    args.addAll(List.of("--watch-label-selector", SHARD_LABEL + "=" + SHARD));
    artifactServer =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    artifactServer.start();
    args.add("--artifact-url-allow-prefix=" + artifactOrigin() + "/");
    rawServer = SlowHttpServer.start();
    args.add("--artifact-url-allow-prefix=" + rawServer.url("/"));
    engine = CapstanProcess.start(kubeconfig, dir, "capstan-hostile", limits.jvmArgs(), args);

    benignRepo = repoOfOneConfigMap("benign", "benign", "0");
    create(benign, gitRepository("benign", benignRepo.url(), ""));
    create(benign, kustomization("benign", "benign", "./app", benign, ""));
    awaitReady(benign, "Kustomization", "benign", Duration.ofMinutes(3));
    benignUsual = benignCommitApplied("1");
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (engine != null) {
        assertTrue(engine.isAlive(), () -> "the engine exited:\n" + engine.logTail());
      }
    } finally {
      CapstanProcess.stopAll(engine == null ? List.of() : List.of(engine), admin, hostile);
      CapstanProcess.stopAll(List.of(), admin, benign);
      admin.namespaces().withName(benign).delete();
      if (slowTenant != null) {
        CapstanProcess.stopAll(List.of(), admin, slowTenant);
        admin.namespaces().withName(slowTenant).delete();
      }
      repos.forEach(LocalGitRepository::close);
      if (artifactServer != null) {
        artifactServer.stop(0);
      }
      if (rawServer != null) {
        rawServer.close();
      }
      Installation.remove(admin);
    }
  }

  /** After every case: the same engine serves, and the benign tenant is not held up. */
  @AfterEach
  void benignTenantStillServed() throws Exception {
    assertTrue(engine.isAlive(), () -> "the engine exited:\n" + engine.logTail());
    assertEquals(200, engine.status("/healthz"), engine::logTail);
    Duration took = benignCommitApplied(Long.toString(System.nanoTime()));
    Duration allowed = benignUsual.plus(BUILD_LIMIT);
    assertTrue(
        took.compareTo(allowed) <= 0,
        "a benign commit took " + took + " to apply, more than " + allowed);
  }

  @Test
  void anIgnoreRuleThatWouldBacktrackEndsInTimeBoundedByItsLength() throws Exception {
    LocalGitRepository git = repo("ignore");
    git.commit(
        Map.of(
            "app/kustomization.yaml",
            "resources: [cm.yaml]\n",
            "app/cm.yaml",
            configMap("ignore", "x"),
            "app/" + "a".repeat(100),
            "x"));
    create(
        hostile, gitRepository("ignore", git.url(), "  ignore: \"" + "*a".repeat(12) + "*b\"\n"));
    Condition ready = awaitReady(hostile, "GitRepository", "ignore", CASE_BOUND);
    assertEquals("True", ready.getStatus(), ready.getMessage());
  }

  @Test
  void aSopsRegexThatBacktracksIsRefusedNamingTheRuleNotTheKeys() throws Exception {
    String costlyKey = "a".repeat(30) + "!";
    Map<String, Object> data = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      data.put(costlyKey + i, "value");
    }
    Map<String, Object> secret = new LinkedHashMap<>();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    secret.put("metadata", Map.of("name", "costly"));
    secret.put("stringData", data);
    byte[] document =
        sops.yaml(secret, Map.of("encrypted_regex", "^(.*a){5}b"), HostileTenantsIT::underData);
    LocalGitRepository git = repo("regex");
    git.commit(
        Map.of(
            "app/kustomization.yaml",
            "resources: [secret.yaml]\n",
            "app/secret.yaml",
            new String(document, StandardCharsets.UTF_8)));
    Condition ready = decryptingTenant("regex", git);
    assertEquals("DecryptionFailed", ready.getReason(), ready.getMessage());
    assertTrue(ready.getMessage().contains("sops.encrypted_regex"), ready.getMessage());
    assertFalse(ready.getMessage().contains(costlyKey), ready.getMessage());
  }

  @Test
  void twoBuildsOfLargeArtifactsAtOnceEndWithTheirOutputBound() throws Exception {
    for (String name : List.of("large-a", "large-b")) {
      LocalGitRepository git = repo(name);
      git.commit(
          Map.of(
              "app/kustomization.yaml",
              "resources: [big.yaml]\n",
              "app/big.yaml",
              configMaps(name, 240, 500_000)));
      create(hostile, gitRepository(name, git.url(), ""));
      create(hostile, kustomization(name, name, "./app", hostile, ""));
    }
    for (String name : List.of("large-a", "large-b")) {
      Condition ready = awaitFalse(name, "BuildFailed");
      assertTrue(ready.getMessage().contains("output is larger than"), ready.getMessage());
    }
  }

  @Test
  void twoBuildsOfManySmallFieldsAtOnceEndWithTheWorkersBounds() throws Exception {
    // Answers of many small fields, whose objects take many times their bytes: kustomize needs
    // more of its worker's memory for them than the engine's heap would, so the worker's bound
    // (memory, or time on a busy machine) ends them before anything reaches the heap.
    for (String name : List.of("wide-a", "wide-b")) {
      LocalGitRepository git = repo(name);
      git.commit(
          Map.of(
              "app/kustomization.yaml",
              "resources: [wide.yaml]\n",
              "app/wide.yaml",
              wideConfigMaps(name, 300, 5_000)));
      create(hostile, gitRepository(name, git.url(), ""));
      create(hostile, kustomization(name, name, "./app", hostile, ""));
    }
    for (String name : List.of("wide-a", "wide-b")) {
      Condition ready = awaitFalse(name, "BuildFailed");
      assertTrue(
          ready.getMessage().contains("needed more than 1024 MiB of memory")
              || ready.getMessage().contains("did not finish within 30s"),
          ready.getMessage());
    }
  }

  @Test
  void manyTinyFilesInThreeRevisions() throws Exception {
    LocalGitRepository git = repo("tiny");
    Map<String, String> files = new LinkedHashMap<>();
    files.put("app/kustomization.yaml", "resources: [cm.yaml]\n");
    files.put("app/cm.yaml", configMap("tiny", "0"));
    for (int i = 0; i < 99_000; i++) {
      files.put("tiny/" + (i % 100) + "/" + i, "");
    }
    git.commit(files);
    create(hostile, gitRepository("tiny", git.url(), ""));
    create(hostile, kustomization("tiny", "tiny", "./app", hostile, ""));
    for (int revision = 1; revision <= 3; revision++) {
      String head = git.head();
      await()
          .atMost(CASE_BOUND)
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> appliedRevision(hostile, "tiny").endsWith(head));
      git.commit(Map.of("app/cm.yaml", configMap("tiny", Integer.toString(revision))));
      requestReconcile(hostile, "tiny");
    }
  }

  @Test
  void aKustomizationWithOneLongScalarIsRefusedBeforeItIsRead() throws Exception {
    LocalGitRepository git = repo("scalar");
    git.commit(
        Map.of(
            "app/kustomization.yaml",
            "resources: [cm.yaml]\ncommonAnnotations:\n  long: " + "x".repeat(96 << 20) + "\n",
            "app/cm.yaml",
            configMap("scalar", "x")));
    Condition ready = decryptingTenant("scalar", git);
    assertEquals("DecryptionFailed", ready.getReason(), ready.getMessage());
    assertTrue(ready.getMessage().contains("is larger than"), ready.getMessage());
  }

  @Test
  void aCelSearchOfQuadraticCostEndsWithTheBudget() throws Exception {
    String grown = "'xxxxxxxxxx'" + ".replace('x', 'xxxxxxxxxx')".repeat(4);
    String tens = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    String expression =
        String.format(
            "[%s].all(s, [s.substring(50000) + 'y'].all(n, %s.all(i, %s.all(j, s.indexOf(n) <"
                + " 0))))",
            grown, tens, tens);
    LocalGitRepository git = repoOfOneConfigMap("cel", "cel", "x");
    create(hostile, gitRepository("cel", git.url(), ""));
    create(
        hostile,
        kustomization(
            "cel",
            "cel",
            "./app",
            hostile,
            "  wait: true\n  healthCheckExprs:\n  - {apiVersion: v1, kind: ConfigMap, current: \""
                + expression
                + "\"}\n"));
    Condition ready = awaitFalse("cel", "HealthCheckFailed");
    assertTrue(ready.getMessage().contains("limit exceeded"), ready.getMessage());
  }

  @Test
  void decryptedValuesTurnedIntoAConfigMapElsewhereAreNeverApplied() throws Exception {
    Map<String, Object> secret = new LinkedHashMap<>();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    secret.put("metadata", Map.of("name", "moved"));
    secret.put("stringData", Map.of("password", "hostile-plaintext-7"));
    byte[] document =
        sops.yaml(secret, Map.of("encrypted_regex", "^stringData$"), HostileTenantsIT::underData);
    LocalGitRepository git = repo("moved");
    git.commit(
        Map.of(
            "app/kustomization.yaml",
            """
            resources: [secret.yaml]
            patches:
            - target: {kind: Secret, name: moved}
              patch: |
                - {op: replace, path: /kind, value: ConfigMap}
                - {op: add, path: /metadata/namespace, value: %s}
                - {op: move, from: /stringData, path: /data}
            """
                .formatted(benign),
            "app/secret.yaml",
            new String(document, StandardCharsets.UTF_8)));
    Condition ready = decryptingTenant("moved", git);
    assertEquals("DecryptionFailed", ready.getReason(), ready.getMessage());
    // The Kustomization's targetNamespace takes the object back to the tenant's namespace.
    assertTrue(ready.getMessage().contains("ConfigMap/" + hostile + "/moved"), ready.getMessage());
    assertTrue(ready.getMessage().contains("only in a Secret"), ready.getMessage());
    assertFalse(ready.getMessage().contains("hostile-plaintext-7"), ready.getMessage());
    assertNull(admin.configMaps().inNamespace(benign).withName("moved").get());
    assertNull(admin.configMaps().inNamespace(hostile).withName("moved").get());
  }

  @Test
  void aGeneratorLiteralWithoutEqualsIsNamedNotQuoted() throws Exception {
    LocalGitRepository git = repo("literal");
    git.commit(
        Map.of(
            "app/kustomization.yaml",
            "secretGenerator:\n- name: creds\n  literals: [user=admin, hostile-literal-9]\n"));
    create(hostile, gitRepository("literal", git.url(), ""));
    create(hostile, kustomization("literal", "literal", "./app", hostile, ""));
    Condition ready = awaitFalse("literal", "BuildFailed");
    assertTrue(ready.getMessage().contains("secretGenerator 'creds'"), ready.getMessage());
    assertFalse(ready.getMessage().contains("hostile-literal-9"), ready.getMessage());
    assertFalse(ready.getMessage().contains("admin"), ready.getMessage());
  }

  /**
   * A generator's file and a resource named by URLs of a local "metadata" server: both builds fail
   * saying remote files or resources are not supported (naming the field, not the URL), and the
   * server is never asked.
   */
  @Test
  void filesAtALocalUrlAreRefusedAndNeverFetched() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    HttpServer metadata = metadataServer(requests);
    try {
      String url = "http://127.0.0.1:" + metadata.getAddress().getPort() + "/latest/meta-data";
      LocalGitRepository git = repo("remote-files");
      git.commit(
          Map.of(
              "generator/kustomization.yaml",
              "configMapGenerator:\n- name: leak\n  files: [" + url + "]\n",
              "resource/kustomization.yaml",
              "resources: [" + url + "]\n"));
      create(hostile, gitRepository("remote-files", git.url(), ""));
      create(
          hostile, kustomization("remote-generator", "remote-files", "./generator", hostile, ""));
      create(hostile, kustomization("remote-resource", "remote-files", "./resource", hostile, ""));
      for (String[] c :
          new String[][] {
            {"remote-generator", "remote files are not supported: a URL in a generator's files"},
            {"remote-resource", "remote resources are not supported: a URL in resources"}
          }) {
        String message = awaitFalse(c[0], "BuildFailed").getMessage();
        assertTrue(message.contains(c[1]), message);
        assertFalse(message.contains("127.0.0.1"), message);
      }
      assertNull(admin.configMaps().inNamespace(hostile).withName("leak").get());
    } finally {
      metadata.stop(0);
    }
    assertEquals(0, requests.get(), "the metadata server was asked");
  }

  /** A server on the loopback address that answers anything, counting what it is asked. */
  private static HttpServer metadataServer(AtomicInteger requests) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          byte[] body = "instance-secret".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    return server;
  }

  /**
   * A tenant's Kustomization that depends on another tenant's, with a timeout of ten years and a
   * finalizer of the tenant's own that keeps it being deleted, holds the other's deletion only for
   * that Kustomization's own timeout; then the other says DependentsNotDeleted and is deleted.
   */
  @Test
  void aDependentInAnotherNamespaceHoldsADeletionOnlyForItsOwnTimeout() throws Exception {
    LocalGitRepository git = repoOfOneConfigMap("victim", "v", "1");
    create(benign, gitRepository("victim", git.url(), ""));
    create(benign, kustomization("victim", "victim", "./app", benign, "  timeout: 20s\n"));
    await()
        .atMost(CASE_BOUND)
        .until(() -> readyOf(benign, "Kustomization", "victim"), r -> isTrue(r));
    create(hostile, holdingDependent("holder", benign, "victim"));
    List<String> reasons = new CopyOnWriteArrayList<>();
    try (Watch watch = readyReasonsOf(benign, "victim", reasons)) {
      deleteAndHold("holder");
      long start = System.nanoTime();
      admin
          .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
          .inNamespace(benign)
          .withName("victim")
          .delete();
      await().atMost(CASE_BOUND).pollInterval(Duration.ofMillis(500)).until(() -> gone("victim"));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(
          took.compareTo(Duration.ofSeconds(60)) < 0,
          "the victim's deletion took " + took + ", its own timeout is 20s");
      assertTrue(
          reasons.stream()
              .anyMatch(
                  r ->
                      r.startsWith("DependentsNotDeleted: deleting its objects although " + hostile)
                          && r.endsWith("after its timeout of 20s")),
          reasons.toString());
      assertNull(admin.configMaps().inNamespace(benign).withName("v").get());
    } finally {
      releaseHold("holder");
    }
  }

  /**
   * A hundred labelled Secrets of a mebibyte each, matching the engine's config watch, do not move
   * the engine's heap: the watch reads their metadata only.
   */
  @Test
  void aHundredLabelledMebibyteSecretsLeaveTheEngineHeapAlone() throws Exception {
    long before = settledHeap();
    byte[] value = new byte[1 << 20];
    try {
      for (int i = 0; i < 100; i++) {
        ThreadLocalRandom.current().nextBytes(value);
        admin
            .secrets()
            .inNamespace(hostile)
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("bulk-" + i)
                    .addToLabels("reconcile.fluxcd.io/watch", "Enabled")
                    .endMetadata()
                    .addToData("blob", Base64.getEncoder().encodeToString(value))
                    .build())
            .create();
      }
      long after = settledHeap();
      assertTrue(
          after - before < 40L << 20,
          "the engine's heap grew from "
              + (before >> 20)
              + " MiB to "
              + (after >> 20)
              + " MiB with 100 MiB of labelled Secrets");
    } finally {
      // One by one: a delete of the whole collection answers with all 100 MiB of it, which a
      // loaded machine did not send within the client's request timeout.
      for (int i = 0; i < 100; i++) {
        admin.secrets().inNamespace(hostile).withName("bulk-" + i).delete();
      }
    }
  }

  @Test
  void anExternalArtifactUrlOfTheEnginesOwnOrTheCloudsAddressesIsRefusedUnasked() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    HttpServer internal =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    internal.createContext(
        "/",
        exchange -> {
          asked.incrementAndGet();
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    internal.start();
    try {
      Map<String, String> urls =
          Map.of(
              "url-loopback",
              "http://127.0.0.1:" + internal.getAddress().getPort() + "/internal",
              "url-apiserver",
              admin.getMasterUrl().toString(),
              "url-metadata",
              "http://169.254.169.254/latest/meta-data/iam/security-credentials/");
      for (var url : urls.entrySet()) {
        externalArtifactTenant(url.getKey(), url.getValue(), "sha256:" + "0".repeat(64));
      }
      for (String name : urls.keySet()) {
        Condition ready = awaitFalse(name, "ArtifactFailed");
        assertTrue(
            ready.getMessage().contains("not one the engine may download from"),
            name + ": " + ready.getMessage());
        assertSaysNothingOfTheAnswer(ready.getMessage());
      }
      assertEquals(0, asked.get(), "the engine asked the internal server");
    } finally {
      internal.stop(0);
    }
  }

  @Test
  void aFailedDownloadFromTheAllowedServerSaysNothingOfTheAnswer() throws Exception {
    byte[] body = "not the file its digest names".getBytes(StandardCharsets.UTF_8);
    artifactServer.createContext(
        "/url-answers/",
        exchange -> {
          boolean found = exchange.getRequestURI().getPath().endsWith("/file.tar.gz");
          exchange.sendResponseHeaders(found ? 200 : 404, found ? body.length : -1);
          if (found) {
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    String wrongDigest = "sha256:" + "1".repeat(64);
    externalArtifactTenant(
        "url-missing", artifactOrigin() + "/url-answers/missing.tar.gz", wrongDigest);
    externalArtifactTenant(
        "url-mismatch", artifactOrigin() + "/url-answers/file.tar.gz", wrongDigest);
    for (String name : List.of("url-missing", "url-mismatch")) {
      Condition ready = awaitFalse(name, "ArtifactFailed");
      assertTrue(
          ready.getMessage().contains("could not be downloaded from its URL"),
          name + ": " + ready.getMessage());
      assertSaysNothingOfTheAnswer(ready.getMessage());
    }
  }

  @Test
  void anExternalArtifactDeclaringAHugeLongNameFailsAndTheEngineStaysUp() throws Exception {
    // The layer of the audit: a GNU long name of 256 MiB (about 261 KB compressed), which the
    // tar reader would have read whole into the heap. Served by the allowed raw server.
    byte[] layer =
        new RawTar()
            .header("././@LongLink", 'L', 256L << 20)
            .data(256L << 20, (byte) 'a')
            .header("cm.yaml", '0', 0)
            .bytes();
    rawServer.answer("GET", "/longname.tar.gz", Map.of(), layer);
    externalArtifactOf("longname", rawServer.url("/longname.tar.gz"), layer);
    create(hostile, kustomizationOfExternalArtifact("longname", "60s"));
    Condition ready = awaitExternalArtifactFailure("longname", "GNU long name of 268435456 bytes");
    assertEquals("ArtifactFailed", ready.getReason(), ready.getMessage());
    assertTrue(engine.isAlive(), () -> "the engine exited:\n" + engine.logTail());
  }

  @Test
  void anExternalArtifactSentOneByteAtATimeEndsAtItsTimeout() throws Exception {
    // One byte every 3 s of 1,000: 50 minutes without a deadline on the body. Served by the
    // allowed raw server.
    rawServer.trickle("/slow.tar.gz", 1000, Duration.ofSeconds(3));
    externalArtifactOf("trickle", rawServer.url("/slow.tar.gz"), new byte[0]);
    long start = System.nanoTime();
    create(hostile, kustomizationOfExternalArtifact("trickle", "5s"));
    Condition ready = awaitExternalArtifactFailure("trickle", "timed out downloading the artifact");
    assertEquals("ArtifactFailed", ready.getReason(), ready.getMessage());
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(Duration.ofSeconds(60)) < 0, "the download ended after " + took);
  }

  @Test
  void tenDownloadsSentOneByteAtATimeLeaveOtherTenantsTheirReconcileThreads() throws Exception {
    // A tenant of its own (its slots stay taken until its downloads end, which later cases of the
    // hostile namespace must not share) with ten Kustomizations whose ExternalArtifacts' files come
    // a byte every 3 s, each with a timeout of 90 s: as many as the engine has reconcile threads.
    // A namespace's fetches take at most half of them, so the benign tenant's commit is applied.
    String slow = hostile + "-slow";
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(slow).endMetadata().build())
        .create();
    slowTenant = slow;
    for (int i = 0; i < 10; i++) {
      String name = "slow-" + i;
      rawServer.trickle("/" + name + ".tar.gz", 1000, Duration.ofSeconds(3));
      externalArtifact(slow, name, rawServer.url("/" + name + ".tar.gz"), emptyDigest());
      create(slow, kustomizationOfExternalArtifact(name, "90s").replace(hostile, slow));
    }
    await()
        .atMost(CASE_BOUND)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> rawServer.requests().stream().filter(r -> r.contains("/slow-")).count() >= 5);
    Duration took = benignCommitApplied("during-" + System.nanoTime());
    Duration allowed = benignUsual.plus(BUILD_LIMIT);
    assertTrue(
        took.compareTo(allowed) <= 0,
        "with ten slow downloads running, a benign commit took " + took + ", more than " + allowed);
  }

  // --- the tenants

  private static String artifactOrigin() {
    return "http://127.0.0.1:" + artifactServer.getAddress().getPort();
  }

  /** An ExternalArtifact whose status names {@code url}, and a Kustomization built from it. */
  private static void externalArtifactTenant(String name, String url, String digest) {
    externalArtifact(name, url, digest);
    create(hostile, kustomizationOfExternalArtifact(name, "1m"));
  }

  /** No status code, digest received or exception name: the URL is no scanner. */
  private static void assertSaysNothingOfTheAnswer(String message) {
    // what follows the Kustomization's own words, which name the (random) namespace
    String prefix = "cannot be used: ";
    String said =
        message.contains(prefix)
            ? message.substring(message.indexOf(prefix) + prefix.length())
            : message;
    for (String detail : List.of("404", "200", "sha256:", "Exception", "refused", "timed out")) {
      assertFalse(said.contains(detail), () -> "'" + detail + "' in: " + message);
    }
  }

  private static LocalGitRepository repo(String name) throws Exception {
    LocalGitRepository git = new LocalGitRepository(Files.createDirectories(work.resolve(name)));
    repos.add(git);
    return git;
  }

  /** A repository whose {@code app} directory holds one ConfigMap of one value. */
  private static LocalGitRepository repoOfOneConfigMap(String name, String configMap, String value)
      throws Exception {
    LocalGitRepository git = repo(name);
    git.commit(
        Map.of(
            "app/kustomization.yaml",
            "resources: [cm.yaml]\n",
            "app/cm.yaml",
            configMap(configMap, value)));
    return git;
  }

  private static boolean underData(List<String> path) {
    return path.size() > 1 && "stringData".equals(path.get(0));
  }

  /** A Kustomization that decrypts with the age key of {@link #sops}, once decryption failed. */
  private static Condition decryptingTenant(String name, LocalGitRepository git) throws Exception {
    admin
        .secrets()
        .inNamespace(hostile)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name + "-keys")
                .endMetadata()
                .withStringData(Map.of("identity.agekey", sops.identity()))
                .build())
        .create();
    create(hostile, gitRepository(name, git.url(), ""));
    create(
        hostile,
        kustomization(
            name,
            name,
            "./app",
            hostile,
            "  decryption:\n    provider: sops\n    secretRef: {name: " + name + "-keys}\n"));
    return awaitFalse(name, "DecryptionFailed");
  }

  private static String gitRepository(String name, String url, String more) {
    return """
    apiVersion: source.capstan.dev/v1
    kind: GitRepository
    metadata: {name: %s, labels: {%s: "%s"}}
    spec:
      url: %s
      interval: 1m
      timeout: 60s
      ref: {branch: main}
    %s\
    """
        .formatted(name, SHARD_LABEL, SHARD, url, more);
  }

  private static String kustomization(
      String name, String source, String path, String target, String more) {
    return """
    apiVersion: kustomize.capstan.dev/v1
    kind: Kustomization
    metadata: {name: %s, labels: {%s: "%s"}}
    spec:
      interval: 1m
      prune: true
      path: %s
      targetNamespace: %s
      sourceRef: {kind: GitRepository, name: %s}
    %s\
    """
        .formatted(name, SHARD_LABEL, SHARD, path, target, source, more);
  }

  private static void create(String namespace, String yaml) {
    GenericKubernetesResource object =
        Serialization.unmarshal(yaml, GenericKubernetesResource.class);
    admin.resource(object).inNamespace(namespace).create();
  }

  private static String configMap(String name, String value) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name
        + "\ndata:\n  value: \""
        + value
        + "\"\n";
  }

  /** {@code count} ConfigMaps of one value of {@code bytes} each. */
  private static String configMaps(String prefix, int count, int bytes) {
    StringBuilder out = new StringBuilder();
    String value = "x".repeat(bytes);
    for (int i = 0; i < count; i++) {
      out.append("---\n").append(configMap(prefix + "-" + i, value));
    }
    return out.toString();
  }

  /** {@code count} ConfigMaps of {@code keys} one-letter values each. */
  private static String wideConfigMaps(String prefix, int count, int keys) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < count; i++) {
      out.append("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ")
          .append(prefix)
          .append('-')
          .append(i)
          .append("\ndata:\n");
      for (int k = 0; k < keys; k++) {
        out.append("  k").append(k).append(": v\n");
      }
    }
    return out.toString();
  }

  /** An ExternalArtifact whose status names {@code url} and the digest of {@code content}. */
  private static void externalArtifactOf(String name, String url, byte[] content) throws Exception {
    externalArtifact(name, url, digestOf(content));
  }

  /** The digest of no bytes: what a file that never finishes coming is announced as. */
  private static String emptyDigest() throws Exception {
    return digestOf(new byte[0]);
  }

  private static String digestOf(byte[] content) throws Exception {
    return "sha256:"
        + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
  }

  /** An ExternalArtifact whose status names {@code url} and {@code digest}. */
  private static void externalArtifact(String name, String url, String digest) {
    externalArtifact(hostile, name, url, digest);
  }

  private static void externalArtifact(String namespace, String name, String url, String digest) {
    create(
        namespace,
        """
        apiVersion: source.capstan.dev/v1
        kind: ExternalArtifact
        metadata: {name: %s, labels: {%s: "%s"}}
        spec: {sourceRef: {apiVersion: example.com/v1, kind: Generator, name: gen}}
        """
            .formatted(name, SHARD_LABEL, SHARD));
    admin
        .genericKubernetesResources("source.capstan.dev/v1", "ExternalArtifact")
        .inNamespace(namespace)
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            """
            {"status":{"artifact":{"revision":"main@sha1:abc","digest":"%s","url":"%s",
              "path":"externalartifact/%s/%s.tar.gz","lastUpdateTime":"2026-01-01T00:00:00Z"},
              "conditions":[{"type":"Ready","status":"True","reason":"Succeeded","message":"ok",
              "lastTransitionTime":"2026-01-01T00:00:00Z"}]}}
            """
                .formatted(digest, url, namespace, name));
  }

  private static String kustomizationOfExternalArtifact(String name, String timeout) {
    return """
    apiVersion: kustomize.capstan.dev/v1
    kind: Kustomization
    metadata: {name: %s, labels: {%s: "%s"}}
    spec:
      interval: 1m
      timeout: %s
      prune: true
      path: ./
      targetNamespace: %s
      sourceRef: {kind: ExternalArtifact, name: %s}
    """
        .formatted(name, SHARD_LABEL, SHARD, timeout, hostile, name);
  }

  /** Ready=False, ArtifactFailed, saying {@code what}: not the "no artifact yet" before it. */
  private static Condition awaitExternalArtifactFailure(String name, String what) {
    return awaitFalseWhere(name, c -> c.getMessage() != null && c.getMessage().contains(what));
  }

  // --- what a user would look at

  private static Optional<Condition> readyOf(String namespace, String kind, String name) {
    String group = "GitRepository".equals(kind) ? "source.capstan.dev" : "kustomize.capstan.dev";
    GenericKubernetesResource object =
        admin
            .genericKubernetesResources(group + "/v1", kind)
            .inNamespace(namespace)
            .withName(name)
            .get();
    if (object == null
        || !(object.getAdditionalProperties().get("status") instanceof Map<?, ?> s)
        || !(s.get("conditions") instanceof List<?> conditions)) {
      return Optional.empty();
    }
    return conditions.stream()
        .map(c -> Serialization.unmarshal(Serialization.asJson(c), Condition.class))
        .filter(c -> "Ready".equals(c.getType()) && !"Unknown".equals(c.getStatus()))
        .findFirst();
  }

  private static Condition awaitReady(String namespace, String kind, String name, Duration bound) {
    return await()
        .atMost(bound)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> readyOf(namespace, kind, name), Optional::isPresent)
        .orElseThrow();
  }

  /** Ready=False with {@code reason}: a source not fetched yet says otherwise first. */
  private static Condition awaitFalse(String name, String reason) {
    return awaitFalseWhere(name, c -> reason.equals(c.getReason()));
  }

  /** The Kustomization's Ready=False condition, once it is one that {@code which} accepts. */
  private static Condition awaitFalseWhere(String name, Predicate<Condition> which) {
    return await()
        .atMost(CASE_BOUND)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> readyOf(hostile, "Kustomization", name),
            c -> c.isPresent() && "False".equals(c.get().getStatus()) && which.test(c.get()))
        .orElseThrow();
  }

  private static String appliedRevision(String namespace, String name) {
    GenericKubernetesResource object =
        admin
            .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
            .inNamespace(namespace)
            .withName(name)
            .get();
    return object != null
            && object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
            && status.get("lastAppliedRevision") instanceof String revision
        ? revision
        : "";
  }

  private static void requestReconcile(String namespace, String gitRepository) {
    // A merge patch: the engine writes the object's status meanwhile, which an edit would race.
    admin
        .genericKubernetesResources("source.capstan.dev/v1", "GitRepository")
        .inNamespace(namespace)
        .withName(gitRepository)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + Instant.now()
                + "\"}}}");
  }

  // --- a dependent that holds a deletion, and the engine's heap

  private static final String HOLD = "hostile.example/hold";

  private static boolean isTrue(Optional<Condition> ready) {
    return ready.isPresent() && "True".equals(ready.get().getStatus());
  }

  /**
   * A suspended Kustomization of the hostile tenant that depends on {@code namespace/name}, with a
   * timeout of ten years and a finalizer of its own.
   */
  private static String holdingDependent(String name, String namespace, String victim) {
    return """
    apiVersion: kustomize.capstan.dev/v1
    kind: Kustomization
    metadata: {name: %s, labels: {%s: "%s"}, finalizers: [%s]}
    spec:
      interval: 1m
      timeout: 87600h
      suspend: true
      prune: true
      path: ./
      sourceRef: {kind: GitRepository, name: none}
      dependsOn: [{name: %s, namespace: %s}]
    """
        .formatted(name, SHARD_LABEL, SHARD, HOLD, victim, namespace);
  }

  private static Resource<GenericKubernetesResource> hostileKustomization(String name) {
    return admin
        .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
        .inNamespace(hostile)
        .withName(name);
  }

  /** Deletes it as its tenant may; waits until only the tenant's finalizer keeps it. */
  private static void deleteAndHold(String name) {
    await()
        .atMost(CASE_BOUND)
        .until(() -> hostileKustomization(name).get().getMetadata().getFinalizers().size() == 2);
    hostileKustomization(name).delete();
    await()
        .atMost(CASE_BOUND)
        .until(
            () ->
                hostileKustomization(name)
                    .get()
                    .getMetadata()
                    .getFinalizers()
                    .equals(List.of(HOLD)));
  }

  private static void releaseHold(String name) {
    if (hostileKustomization(name).get() != null) {
      hostileKustomization(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    }
  }

  private static boolean gone(String name) {
    return admin
            .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
            .inNamespace(benign)
            .withName(name)
            .get()
        == null;
  }

  /** Each Ready "reason: message" a watch of the Kustomization sees, once each. */
  private static Watch readyReasonsOf(String namespace, String name, List<String> reasons) {
    return admin
        .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
        .inNamespace(namespace)
        .withName(name)
        .watch(
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, GenericKubernetesResource object) {
                if (object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                    && status.get("conditions") instanceof List<?> conditions) {
                  conditions.stream()
                      .map(c -> Serialization.unmarshal(Serialization.asJson(c), Condition.class))
                      .filter(c -> "Ready".equals(c.getType()))
                      .map(c -> c.getReason() + ": " + c.getMessage())
                      .filter(r -> !reasons.contains(r))
                      .forEach(reasons::add);
                }
              }

              @Override
              public void onClose(WatcherException cause) {}
            });
  }

  /**
   * The engine's heap in use, the least of ten readings half a second apart: what is live, with
   * little of what the next collection would free.
   */
  private static long settledHeap() throws InterruptedException {
    long least = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      String metrics = engine.get("/metrics").body();
      long used =
          metrics
              .lines()
              .filter(l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\""))
              .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
              .sum();
      least = Math.min(least, used);
      Thread.sleep(500);
    }
    return least;
  }

  /** Commits to the benign tenant, asks for a reconcile, and returns how long until applied. */
  private static Duration benignCommitApplied(String value) throws Exception {
    benignRepo.commit(Map.of("app/cm.yaml", configMap("benign", value)));
    String head = benignRepo.head();
    long start = System.nanoTime();
    requestReconcile(benign, "benign");
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> appliedRevision(benign, "benign").endsWith(head));
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
