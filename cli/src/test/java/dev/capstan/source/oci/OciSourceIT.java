package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.cli.push.PushCommand;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.oci.testing.Layers;
import dev.capstan.testing.OciRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Pulls from a real registry (the Distribution registry built from its Go module) what {@code
 * capstan push artifact} and an independent client (ORAS's CLI, built from its Go module) pushed:
 * the formats are proven against another implementation, not only against each other.
 */
class OciSourceIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path shared;
  private static OciRegistry registry;

  @TempDir Path work;

  @BeforeAll
  static void startRegistry() throws Exception {
    registry = OciRegistry.start(shared.resolve("plain"), OciRegistry.Options.plain());
  }

  @AfterAll
  static void stopRegistry() throws Exception {
    if (registry != null) {
      registry.close();
    }
  }

  private OciSource source() {
    return new OciSource(
        OciSourceOptions.of(new ArtifactStore(work.resolve("store"), Clock.systemUTC()), null));
  }

  private Path tree(String name, Map<String, String> files) throws Exception {
    Path dir = work.resolve(name);
    for (var file : files.entrySet()) {
      Path path = dir.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getValue());
    }
    return dir;
  }

  /** Runs {@code capstan push artifact} in-process; returns its JSON answer. */
  static JsonNode push(String url, Path dir, String... more) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new PushCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    List<String> args =
        new ArrayList<>(
            List.of(
                "artifact",
                url,
                "--path",
                dir.toString(),
                "--source",
                "https://git.example/org/app.git",
                "--revision",
                "main@sha1:0123456789abcdef0123456789abcdef01234567",
                "-o",
                "json"));
    args.addAll(List.of(more));
    int exit = cli.execute(args.toArray(String[]::new));
    assertEquals(0, exit, "push failed: " + err);
    return JSON.readTree(out.toString());
  }

  @Test
  void pullsWhatThePushCommandPushedAndAnUnchangedTagCostsOneHead() throws Exception {
    Path dir = tree("app", Map.of("app/cm.yaml", "kind: ConfigMap\n", "logo.png", "binary"));
    JsonNode pushed = push(registry.url("org/app") + ":v1", dir, "--insecure-registry");
    String digest = pushed.path("digest").asText();
    OciSource source = source();
    OciFetchRequest request =
        OciFetchRequest.of("ocirepository/ns/app", registry.url("org/app"), OciRef.tag("v1"))
            .withInsecure(true);

    FetchResult first = source.fetch(request);

    StoredArtifact artifact = assertInstanceOf(FetchResult.Fetched.class, first).current();
    assertEquals("v1@" + digest, artifact.revision());
    assertEquals("kind: ConfigMap\n", Files.readString(artifact.path().resolve("app/cm.yaml")));
    assertFalse(Files.exists(artifact.path().resolve("logo.png")), "Flux's default exclusions");
    assertEquals(
        "https://git.example/org/app.git", artifact.metadata().get(OciSource.SOURCE_ANNOTATION));
    assertEquals(
        "main@sha1:0123456789abcdef0123456789abcdef01234567",
        artifact.metadata().get(OciSource.REVISION_ANNOTATION));

    int before = registry.requests().size();
    FetchResult again = source.fetch(request);
    assertInstanceOf(FetchResult.Unchanged.class, again);
    List<String> sent = registry.requests().subList(before, registry.requests().size());
    assertEquals(List.of("HEAD /v2/org/app/manifests/v1"), sent);
  }

  @Test
  void pullsWhatOrasPushedAndOrasReadsWhatThePushCommandPushed() throws Exception {
    Path oras = OciRegistry.tool("oras");
    Path dir = work.resolve("oras");
    Files.createDirectories(dir);
    Files.write(dir.resolve("layer.tgz"), new Layers().file("deploy/cm.yaml", "a: b\n").bytes());
    Files.writeString(dir.resolve("config.json"), "{}");
    String target = registry.host() + "/org/oras:v7";
    run(
        dir,
        oras.toString(),
        "push",
        "--plain-http",
        "--config",
        "config.json:" + ArtifactPusher.CONFIG_MEDIA_TYPE,
        "--annotation",
        OciSource.SOURCE_ANNOTATION + "=https://git.example/oras.git",
        target,
        "layer.tgz:" + ArtifactPusher.CONTENT_MEDIA_TYPE);

    FetchResult pulled =
        source()
            .fetch(
                OciFetchRequest.of("k", registry.url("org/oras"), OciRef.tag("v7"))
                    .withInsecure(true));

    StoredArtifact artifact = assertInstanceOf(FetchResult.Fetched.class, pulled).current();
    assertEquals("a: b\n", Files.readString(artifact.path().resolve("deploy/cm.yaml")));
    assertEquals(
        "https://git.example/oras.git", artifact.metadata().get(OciSource.SOURCE_ANNOTATION));

    Path ours = tree("ours", Map.of("x/y.yaml", "y: 1\n"));
    push(registry.url("org/ours") + ":v1", ours, "--insecure-registry");
    String manifest =
        run(
            dir,
            oras.toString(),
            "manifest",
            "fetch",
            "--plain-http",
            registry.host() + "/org/ours:v1");
    JsonNode json = JSON.readTree(manifest);
    assertEquals(Manifest.OCI_MANIFEST, json.path("mediaType").asText());
    assertEquals(ArtifactPusher.CONFIG_MEDIA_TYPE, json.path("config").path("mediaType").asText());
    assertEquals(
        ArtifactPusher.CONTENT_MEDIA_TYPE, json.path("layers").get(0).path("mediaType").asText());
    assertEquals(
        "main@sha1:0123456789abcdef0123456789abcdef01234567",
        json.path("annotations").path(OciSource.REVISION_ANNOTATION).asText());
    Path blob = work.resolve("layer-from-oras.tgz");
    run(
        dir,
        oras.toString(),
        "blob",
        "fetch",
        "--plain-http",
        "--output",
        blob.toString(),
        registry.host() + "/org/ours@" + json.path("layers").get(0).path("digest").asText());
    Path unpacked = work.resolve("unpacked");
    Files.createDirectories(unpacked);
    LayerUnpacker.unpack(blob, unpacked, OciSourceOptions.DEFAULT_LIMITS);
    assertEquals("y: 1\n", Files.readString(unpacked.resolve("x/y.yaml")));
  }

  @Test
  void aTamperedLayerIsNotStoredAndTheLastGoodOneStays() throws Exception {
    OciSource source = source();
    push(
        registry.url("org/tamper") + ":live",
        tree("v1", Map.of("a.yaml", "v: 1\n")),
        "--insecure-registry");
    OciFetchRequest request =
        OciFetchRequest.of("k", registry.url("org/tamper"), OciRef.tag("live")).withInsecure(true);
    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
    JsonNode second =
        push(
            registry.url("org/tamper") + ":live",
            tree("v2", Map.of("a.yaml", "v: 2\n")),
            "--insecure-registry");
    String layerDigest = layerOf(second.path("digest").asText());
    Path data = registry.blobData(layerDigest);
    byte[] bytes = Files.readAllBytes(data);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(data, bytes);

    FetchResult result = source.fetch(request);

    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
    assertEquals(FailureReason.OCI_LAYER_FAILED, failed.reason());
    assertTrue(failed.message().contains("does not match its digest"), failed.message());
    assertEquals(good.revision(), failed.lastGood().orElseThrow().revision());
    assertEquals(
        "v: 1\n", Files.readString(failed.lastGood().orElseThrow().path().resolve("a.yaml")));
  }

  @Test
  void semverPicksTheHighestTagTheFilterLets() throws Exception {
    Path dir = tree("s", Map.of("a.yaml", "a\n"));
    for (String tag : List.of("1.0.0", "1.2.0", "1.3.0-rc.1", "2.0.0")) {
      push(registry.url("org/semver") + ":" + tag, dir, "--insecure-registry", "--reproducible");
    }
    FetchResult result =
        source()
            .fetch(
                OciFetchRequest.of(
                        "k",
                        registry.url("org/semver"),
                        new OciRef(null, ">=1.0.0 <2.0.0", null, null))
                    .withInsecure(true));
    assertTrue(
        assertInstanceOf(FetchResult.Fetched.class, result)
            .current()
            .revision()
            .startsWith("1.2.0@sha256:"));
  }

  @Test
  void aHostileLayerFailsWithoutWritingOutsideTheTree() throws Exception {
    Path dir = work.resolve("hostile");
    Files.createDirectories(dir);
    Files.write(dir.resolve("layer.tgz"), new Layers().file("../../escaped.yaml", "x").bytes());
    Files.writeString(dir.resolve("config.json"), "{}");
    run(
        dir,
        OciRegistry.tool("oras").toString(),
        "push",
        "--plain-http",
        "--config",
        "config.json:" + ArtifactPusher.CONFIG_MEDIA_TYPE,
        registry.host() + "/org/hostile:v1",
        "layer.tgz:" + ArtifactPusher.CONTENT_MEDIA_TYPE);

    FetchResult result =
        source()
            .fetch(
                OciFetchRequest.of("k", registry.url("org/hostile"), OciRef.tag("v1"))
                    .withInsecure(true));

    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
    assertEquals(FailureReason.OCI_LAYER_FAILED, failed.reason());
    assertTrue(failed.lastGood().isEmpty());
    try (var files = Files.walk(work)) {
      assertTrue(files.noneMatch(p -> p.getFileName().toString().equals("escaped.yaml")));
    }
  }

  @Test
  void aSignedArtifactIsStoredAndOneSignedByAnotherKeyIsNot() throws Exception {
    OciSource source = source();
    CosignSigner trusted = new CosignSigner();
    CosignSigner stranger = new CosignSigner();
    JsonNode v1 =
        push(
            registry.url("org/signed") + ":live",
            tree("s1", Map.of("a.yaml", "1\n")),
            "--insecure-registry");
    trusted.sign(
        registry.host(), "org/signed", v1.path("digest").asText(), null, null, Map.of(), "http");
    OciFetchRequest request =
        OciFetchRequest.of("k", registry.url("org/signed"), OciRef.tag("live"))
            .withInsecure(true)
            .withVerification(
                Map.of("cosign.pub", trusted.publicKeyPem().getBytes(StandardCharsets.UTF_8)));

    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
    assertTrue(good.verified().orElseThrow().message().contains("cosign.pub"));

    JsonNode v2 =
        push(
            registry.url("org/signed") + ":live",
            tree("s2", Map.of("a.yaml", "2\n")),
            "--insecure-registry");
    stranger.sign(
        registry.host(), "org/signed", v2.path("digest").asText(), null, null, Map.of(), "http");
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, source.fetch(request));
    assertEquals(FailureReason.VERIFICATION_FAILED, failed.reason());
    assertTrue(failed.message().contains("no matching signatures"), failed.message());
    assertEquals(good.revision(), failed.lastGood().orElseThrow().revision());

    JsonNode v3 =
        push(
            registry.url("org/signed") + ":live",
            tree("s3", Map.of("a.yaml", "3\n")),
            "--insecure-registry");
    FetchResult.Failed unsigned = assertInstanceOf(FetchResult.Failed.class, source.fetch(request));
    assertEquals(FailureReason.VERIFICATION_FAILED, unsigned.reason());
    assertTrue(unsigned.message().contains("no signature found"), unsigned.message());
    assertFalse(v3.isEmpty());
  }

  private String layerOf(String manifestDigest) throws Exception {
    String manifest =
        run(
            work,
            OciRegistry.tool("oras").toString(),
            "manifest",
            "fetch",
            "--plain-http",
            registry.host() + "/org/tamper@" + manifestDigest);
    return JSON.readTree(manifest).path("layers").get(0).path("digest").asText();
  }

  static String run(Path dir, String... command) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    builder.environment().putAll(registry.orasEnvironment());
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), String.join(" ", command) + ":\n" + output);
    return output;
  }
}
