package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.cli.CapstanMain;
import dev.capstan.source.oci.ArtifactUrlPolicy;
import dev.capstan.source.oci.KeylessSigner;
import dev.capstan.source.oci.testing.TestSigstore;
import dev.capstan.source.oci.testing.TestSigstore.Signing;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.OciRegistry;
import dev.capstan.testing.TestPki;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * OCI artifacts as Flux users deploy them: an OCIRepository and Kustomization pair from Flux's
 * documentation, artifacts published with {@code capstan push artifact} to a real registry, a
 * tampered layer, an unsigned artifact and one signed keyless by another identity that are never
 * applied, one signed keyless that is, and an ExternalArtifact's file served over HTTP.
 */
class OciRepositoryIT extends EngineTestBase {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Flux's documented pair (docs/spec/v1/ocirepositories.md and the Kustomization's OCIRepository
   * example), verbatim apart from the placeholders this test fills: the registry's host (nothing
   * outside this machine is reachable), the namespace and the test's shard label.
   */
  private static final String FLUX_DOCS_PAIR =
      """
      ---
      apiVersion: source.toolkit.fluxcd.io/v1
      kind: OCIRepository
      metadata:
        name: podinfo
        namespace: NAMESPACE
        labels: {SHARD}
      spec:
        interval: 5m0s
        url: oci://REGISTRY/stefanprodan/manifests/podinfo
        ref:
          tag: latest
      ---
      apiVersion: kustomize.toolkit.fluxcd.io/v1
      kind: Kustomization
      metadata:
        name: podinfo
        namespace: NAMESPACE
        labels: {SHARD}
      spec:
        interval: 10m
        targetNamespace: NAMESPACE
        prune: true
        sourceRef:
          kind: OCIRepository
          name: podinfo
        path: ./
      """;

  private static OciRegistry registry;
  private static HttpServer files;

  @TempDir static Path shared;

  @BeforeAll
  static void startRegistry() throws Exception {
    registry = OciRegistry.start(shared.resolve("registry"), OciRegistry.Options.plain());
  }

  @AfterAll
  static void stopRegistry() throws Exception {
    if (registry != null) {
      registry.close();
    }
    if (files != null) {
      files.stop(0);
    }
  }

  @Test
  void theDocumentedPairWorksWithTheApiGroupChanged() throws Exception {
    push("stefanprodan/manifests/podinfo:latest", configMap("podinfo", "v1"), "6.1.8@sha1:b3b0");
    String pair =
        FLUX_DOCS_PAIR
            .replace("source.toolkit.fluxcd.io", "source.capstan.dev")
            .replace("kustomize.toolkit.fluxcd.io", "kustomize.capstan.dev")
            .replace("REGISTRY", registry.host())
            .replace("NAMESPACE", ns())
            .replace("{SHARD}", "{" + EngineFixture.SHARD_LABEL + ": " + engine.shard + "}");
    for (HasMetadata object :
        engine
            .client
            .load(new ByteArrayInputStream(pair.getBytes(StandardCharsets.UTF_8)))
            .items()) {
      create(object);
    }

    engine.awaitCondition("podinfo", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);

    assertEquals("v1", configMapData("podinfo"));
    OCIRepository repo = oci("podinfo");
    String revision = repo.getStatus().artifact().revision();
    assertTrue(revision.matches("latest@sha256:[0-9a-f]{64}"), revision);
    assertEquals(revision, engine.kustomization("podinfo").getStatus().lastAppliedRevision());
    assertEquals(
        "6.1.8@sha1:b3b0",
        repo.getStatus().artifact().metadata().get("org.opencontainers.image.revision"));
  }

  @Test
  void aTamperedLayerIsNeverAppliedAndTheLastGoodRevisionStays() throws Exception {
    push("team/tamper:live", configMap("tamper", "good"), "main@sha1:1");
    oci("tamper", "team/tamper", "live");
    kustomization("tamper", "OCIRepository", "tamper");
    engine.awaitCondition("tamper", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    String good = engine.kustomization("tamper").getStatus().lastAppliedRevision();

    JsonNode bad = push("team/tamper:live", configMap("tamper", "evil"), "main@sha1:2");
    Path blob = registry.blobData(layerOf("team/tamper", bad.path("digest").asText()));
    byte[] bytes = Files.readAllBytes(blob);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(blob, bytes);
    engine.requestReconcile(OCIRepository.class, "tamper");

    Condition failed =
        awaitSourceCondition("tamper", "Ready", Duration.ofSeconds(60), EngineTestBase::isFalse);
    assertEquals("OCIArtifactLayerOperationFailed", failed.getReason());
    assertTrue(failed.getMessage().contains("does not match its digest"), failed.getMessage());
    assertEquals(good, oci("tamper").getStatus().artifact().revision());
    reconcileAndWait("tamper");
    assertEquals("good", configMapData("tamper"));
    assertEquals(good, engine.kustomization("tamper").getStatus().lastAppliedRevision());
  }

  @Test
  void aFailedSignatureCheckIsNeverAppliedAndTheLastGoodRevisionStays() throws Exception {
    push("team/signed:live", configMap("signed", "good"), "main@sha1:1");
    oci("signed", "team/signed", "live");
    kustomization("signed", "OCIRepository", "signed");
    engine.awaitCondition("signed", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    String good = engine.kustomization("signed").getStatus().lastAppliedRevision();

    // A new artifact nobody signed, and from now on only artifacts signed by this key count.
    push("team/signed:live", configMap("signed", "evil"), "main@sha1:2");
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("cosign-keys")
                .endMetadata()
                .addToStringData("cosign.pub", TestPki.pem(TestPki.ecKeys().getPublic()))
                .build())
        .create();
    engine
        .client
        .resources(OCIRepository.class)
        .inNamespace(ns())
        .withName("signed")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"verify\":{\"provider\":\"cosign\","
                + "\"secretRef\":{\"name\":\"cosign-keys\"}}}}");

    Condition failed =
        awaitSourceCondition("signed", "Ready", Duration.ofSeconds(60), EngineTestBase::isFalse);
    assertEquals("VerificationError", failed.getReason());
    assertTrue(failed.getMessage().contains("no signature found"), failed.getMessage());
    assertEquals(good, oci("signed").getStatus().artifact().revision());
    reconcileAndWait("signed");
    assertEquals("good", configMapData("signed"));
    assertEquals(good, engine.kustomization("signed").getStatus().lastAppliedRevision());
  }

  @Test
  void aKeylessSignatureIsVerifiedAndAFailedOneKeepsTheLastGoodRevision() throws Exception {
    TestSigstore sigstore = new TestSigstore();
    String issuer = "https://token.actions.example.test";
    String subject = "https://git.example.test/team/app/.github/workflows/release.yml@refs/tags/v1";
    String good =
        push("team/keyless:live", configMap("keyless", "good"), "main@sha1:1")
            .path("digest")
            .asText();
    KeylessSigner.attach(
        registry.host(), "team/keyless", good, sigstore.bundle(good, Signing.of(issuer, subject)));
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("sigstore-root")
                .endMetadata()
                .addToStringData("trusted_root.json", sigstore.trustedRootJson())
                .build())
        .create();
    oci(
        "keyless",
        "team/keyless",
        "live",
        ", verify: {provider: cosign, trustedRootSecretRef: {name: sigstore-root},"
            + " matchOIDCIdentity: [{issuer: '^https://token.actions.example.test$',"
            + " subject: '^https://git.example.test/team/app/.*$'}]}");
    kustomization("keyless", "OCIRepository", "keyless");
    engine.awaitCondition("keyless", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertEquals("good", configMapData("keyless"));
    Condition verified =
        awaitSourceCondition(
            "keyless", "SourceVerified", Duration.ofSeconds(30), EngineTestBase::isTrue);
    assertTrue(verified.getMessage().contains("keyless"), verified.getMessage());
    String revision = oci("keyless").getStatus().artifact().revision();

    // The next artifact is signed, but by a workflow of another repository.
    String other =
        push("team/keyless:live", configMap("keyless", "evil"), "main@sha1:2")
            .path("digest")
            .asText();
    KeylessSigner.attach(
        registry.host(),
        "team/keyless",
        other,
        sigstore.bundle(other, Signing.of(issuer, "https://git.example.test/mallory/app")));
    engine.requestReconcile(OCIRepository.class, "keyless");

    Condition failed =
        awaitSourceCondition("keyless", "Ready", Duration.ofSeconds(60), EngineTestBase::isFalse);
    assertEquals("VerificationError", failed.getReason());
    assertTrue(failed.getMessage().contains("matchOIDCIdentity"), failed.getMessage());
    assertEquals(revision, oci("keyless").getStatus().artifact().revision());
    reconcileAndWait("keyless");
    assertEquals("good", configMapData("keyless"));
    assertEquals(revision, engine.kustomization("keyless").getStatus().lastAppliedRevision());
  }

  @Test
  void anExternalArtifactIsBuiltFromItsFileWithUrlAndDigestChecked() throws Exception {
    byte[] tarball = tarball("external.yaml", configMap("external", "from-elsewhere"));
    AtomicInteger asked = new AtomicInteger();
    files = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    files.createContext(
        "/artifact.tar.gz",
        exchange -> {
          asked.incrementAndGet();
          exchange.sendResponseHeaders(200, tarball.length);
          exchange.getResponseBody().write(tarball);
          exchange.close();
        });
    files.start();
    String origin = "http://127.0.0.1:" + files.getAddress().getPort();
    String url = origin + "/artifact.tar.gz";

    // The class's engine lists no artifact server: a loopback URL is refused, never asked.
    external("loopback", url, sha256(tarball));
    kustomization(engine, "loopback", "ExternalArtifact", "loopback");
    Condition loopback =
        engine.awaitCondition("loopback", "Ready", Duration.ofSeconds(60), EngineTestBase::isFalse);
    assertEquals("ArtifactFailed", loopback.getReason());
    assertTrue(
        loopback.getMessage().contains("not one the engine may download from"),
        loopback.getMessage());
    assertEquals(0, asked.get());

    // An engine started with --artifact-url-allow-prefix for that server downloads from it.
    try (EngineFixture allowing =
        EngineFixture.start(
            new KubernetesClientBuilder().withConfig(engine.client.getConfiguration()).build(),
            ns(),
            o ->
                o.withTenancy(
                    o.tenancy()
                        .withArtifactUrls(ArtifactUrlPolicy.of(List.of(origin + "/"), false))))) {
      external("generated", url, sha256(tarball));
      kustomization(allowing, "external", "ExternalArtifact", "generated");

      allowing.awaitCondition("external", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
      assertEquals("from-elsewhere", configMapData("external"));

      external("wrong", url, "sha256:" + "0".repeat(64));
      kustomization(allowing, "wrong", "ExternalArtifact", "wrong");
      Condition refused =
          allowing.awaitCondition(
              "wrong", "Ready", Duration.ofSeconds(60), EngineTestBase::isFalse);
      assertEquals("ArtifactFailed", refused.getReason());
      assertTrue(
          refused.getMessage().contains("could not be downloaded from its URL"),
          refused.getMessage());
      assertFalse(refused.getMessage().contains(sha256(tarball)), refused.getMessage());
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** Runs {@code capstan push artifact} with the directory holding {@code manifest}. */
  private static JsonNode push(String target, String manifest, String revision) throws Exception {
    Path dir = Files.createTempDirectory(shared, "push");
    Files.writeString(dir.resolve("manifest.yaml"), manifest);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CapstanMain.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit =
        cli.execute(
            "push",
            "artifact",
            "oci://" + registry.host() + "/" + target,
            "--path",
            dir.toString(),
            "--source",
            "https://github.com/stefanprodan/podinfo",
            "--revision",
            revision,
            "--insecure-registry",
            "-o",
            "json");
    assertEquals(0, exit, err.toString());
    return JSON.readTree(out.toString());
  }

  private static String configMap(String name, String value) {
    return """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: %s}
    data: {value: %s}
    """
        .formatted(name, value);
  }

  private static String configMapData(String name) {
    ConfigMap map = engine.client.configMaps().inNamespace(ns()).withName(name).get();
    return map == null ? null : map.getData().get("value");
  }

  private static OCIRepository oci(String name) {
    return engine.client.resources(OCIRepository.class).inNamespace(ns()).withName(name).get();
  }

  private static void oci(String name, String repository, String tag) {
    oci(name, repository, tag, "");
  }

  /** An OCIRepository of the test registry; {@code more} is more of its spec, in flow style. */
  private static void oci(String name, String repository, String tag, String more) {
    String yaml =
        """
        apiVersion: source.capstan.dev/v1
        kind: OCIRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec: {url: "oci://%s/%s", ref: {tag: %s}, interval: 10m%s}
        """
            .formatted(
                name,
                ns(),
                EngineFixture.SHARD_LABEL,
                engine.shard,
                registry.host(),
                repository,
                tag,
                more);
    engine
        .client
        .resource(
            engine
                .client
                .resources(OCIRepository.class)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .item())
        .create();
  }

  /** An ExternalArtifact, its status written as its producer would. */
  private static void external(String name, String url, String digest) {
    String yaml =
        """
        apiVersion: source.capstan.dev/v1
        kind: ExternalArtifact
        metadata: {name: %s, namespace: %s}
        spec: {sourceRef: {apiVersion: example.com/v1, kind: Generator, name: gen}}
        """
            .formatted(name, ns());
    var created =
        engine
            .client
            .resource(
                engine
                    .client
                    .resources(ExternalArtifact.class)
                    .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                    .item())
            .create();
    String status =
        """
        {"status":{"artifact":{"revision":"main@sha1:abc","digest":"%s","url":"%s",
          "path":"externalartifact/%s/%s.tar.gz","lastUpdateTime":"2025-01-01T00:00:00Z",
          "metadata":{"org.opencontainers.image.revision":"main@sha1:abc"}},
          "conditions":[{"type":"Ready","status":"True","reason":"Succeeded","message":"ok",
          "lastTransitionTime":"2025-01-01T00:00:00Z"}]}}
        """
            .formatted(digest, url, ns(), name);
    engine
        .client
        .resources(ExternalArtifact.class)
        .inNamespace(ns())
        .withName(created.getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), status);
  }

  /** A Kustomization of {@code kind}'s source. */
  private static void kustomization(String name, String kind, String source) {
    kustomization(engine, name, kind, source);
  }

  /** A Kustomization of {@code kind}'s source, reconciled by {@code by}. */
  private static void kustomization(EngineFixture by, String name, String kind, String source) {
    String yaml =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
          sourceRef: {kind: %s, name: %s}
          path: ./
          interval: 10m
          prune: true
        """
            .formatted(name, ns(), EngineFixture.SHARD_LABEL, by.shard, kind, source);
    create(
        engine
            .client
            .resources(Kustomization.class)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item());
  }

  /**
   * Creates the object. On a control plane other branches' tests share, their older CRDs may have
   * been applied since this class installed its own: then they are installed again.
   */
  private static void create(HasMetadata object) {
    for (int attempt = 1; ; attempt++) {
      try {
        engine.client.resource(object).create();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 422 || attempt >= 3) {
          throw e;
        }
        CapstanCrds.install(engine.client);
      }
    }
  }

  /** Asks the Kustomization for a reconcile and waits until its status says it handled it. */
  private static void reconcileAndWait(String name) {
    String token = Instant.now().toString();
    engine
        .client
        .resources(Kustomization.class)
        .inNamespace(ns())
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + token
                + "\"}}}");
    EngineFixture.eventually(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertEquals(
                    token, engine.kustomization(name).getStatus().lastHandledReconcileAt()));
  }

  private static Condition awaitSourceCondition(
      String name, String type, Duration atMost, Predicate<Condition> test) {
    AtomicReference<Condition> seen = new AtomicReference<>();
    EngineFixture.eventually(atMost)
        .untilAsserted(
            () -> {
              var status = oci(name).getStatus();
              Optional<Condition> matching =
                  status == null || status.conditions() == null
                      ? Optional.empty()
                      : status.conditions().stream()
                          .filter(c -> type.equals(c.getType()))
                          .filter(test)
                          .findFirst();
              assertTrue(matching.isPresent(), () -> "OCIRepository " + name + ": " + status);
              seen.set(matching.get());
            });
    return seen.get();
  }

  private static String layerOf(String repository, String manifestDigest) throws Exception {
    var client = HttpClient.newHttpClient();
    var response =
        client.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://"
                            + registry.host()
                            + "/v2/"
                            + repository
                            + "/manifests/"
                            + manifestDigest))
                .header("Accept", "application/vnd.oci.image.manifest.v1+json")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body()).path("layers").get(0).path("digest").asText();
  }

  private static byte[] tarball(String name, String content) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
      byte[] data = content.getBytes(StandardCharsets.UTF_8);
      TarArchiveEntry entry = new TarArchiveEntry(name);
      entry.setSize(data.length);
      tar.putArchiveEntry(entry);
      tar.write(data);
      tar.closeArchiveEntry();
    }
    return bytes.toByteArray();
  }

  private static String sha256(byte[] bytes) throws Exception {
    return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
