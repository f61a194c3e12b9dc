package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.oci.CosignSigner;
import dev.capstan.source.oci.KeylessPolicy;
import dev.capstan.source.oci.KeylessSigner;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciRef;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.oci.OciSourceOptions;
import dev.capstan.source.oci.testing.TestSigstore;
import dev.capstan.testing.OciRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts pulled from a real registry, pushed by the reference helm and by ORAS. */
class OciChartSourceTest {
  @TempDir static Path shared;
  private static OciRegistry registry;

  @TempDir Path work;
  private ArtifactStore store;
  private OciSource oci;
  private ChartPushes pushes;

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

  @BeforeEach
  void setUp() {
    store = new ArtifactStore(work.resolve("store"), Clock.systemUTC());
    oci = new OciSource(OciSourceOptions.of(store, Clock.systemUTC()));
    pushes = new ChartPushes(registry, work, List.of("--plain-http"));
  }

  private OciChartSource source(long maxChartSize) {
    return new OciChartSource(oci, store, Clock.systemUTC(), maxChartSize);
  }

  private static OciChartRequest request(String repository, String chart, String range) {
    return OciChartRequest.of("helmchart/ns/" + chart, registry.url(repository), chart, range);
  }

  @Test
  void theHighestVersionInTheRangeIsStoredAndAnUnchangedTagDownloadsNothing() throws Exception {
    for (String version : List.of("1.0.0", "1.2.0", "1.10.1", "2.0.0")) {
      pushes.helmPush(pushes.pack(pushes.chart("demo", version, 0)), "charts");
    }
    OciChartSource source = source(0);
    OciChartRequest request = request("charts", "demo", "^1.0.0");

    StoredArtifact stored =
        assertInstanceOf(FetchResult.Fetched.class, source.pull(request)).current();
    assertEquals("1.10.1", stored.revision());
    Path chart = OciChartSource.chartFile(stored);
    assertEquals("demo-1.10.1.tgz", chart.getFileName().toString());
    ChartFiles files;
    try (var in = Files.newInputStream(chart)) {
      files = ChartArchive.read(in, ChartLimits.DEFAULTS, "stored", FailureReason.OCI_LAYER_FAILED);
    }
    assertEquals("demo", files.name());
    assertEquals("1.10.1", files.version());

    int before = registry.requests().size();
    assertInstanceOf(FetchResult.Unchanged.class, source.pull(request));
    List<String> sent = registry.requests().subList(before, registry.requests().size());
    assertEquals(
        List.of("GET /v2/charts/demo/tags/list", "HEAD /v2/charts/demo/manifests/1.10.1"), sent);

    FetchResult.Failed none =
        assertInstanceOf(
            FetchResult.Failed.class, source.pull(request("charts", "demo", ">=3.0.0")));
    assertEquals(FailureReason.REF_NOT_FOUND, none.reason());
    assertTrue(none.message().contains("matches '>=3.0.0'"), none.message());
  }

  @Test
  void aVersionWithBuildMetadataIsPulledFromTheTagHelmWritesWithAnUnderscore() throws Exception {
    pushes.helmPush(pushes.pack(pushes.chart("meta", "0.3.0+build.7", 0)), "charts");

    StoredArtifact stored =
        assertInstanceOf(
                FetchResult.Fetched.class, source(0).pull(request("charts", "meta", "0.3.x")))
            .current();

    assertEquals("0.3.0+build.7", stored.revision());
    assertTrue(
        registry.requests().contains("HEAD /v2/charts/meta/manifests/0.3.0_build.7"),
        String.join("\n", registry.requests()));
  }

  @Test
  void valuesFilesOfTheChartAreMergedAndTheVersionGetsTheGenerationAsForAnIndexsChart()
      throws Exception {
    Path dir = pushes.chart("valued", "1.0.0", 0);
    Files.writeString(dir.resolve("values-prod.yaml"), "greeting: hi\nreplicas: 3\n");
    pushes.helmPush(pushes.pack(dir), "charts");
    OciChartSource source = source(0);
    OciChartRequest request =
        request("charts", "valued", "1.x")
            .withValuesFiles(List.of("values.yaml", "./values-prod.yaml"))
            .withVersionMetadata(ChartVersions.metadata(null, 3L));

    StoredArtifact stored =
        assertInstanceOf(FetchResult.Fetched.class, source.pull(request)).current();

    assertEquals("1.0.0+3", stored.revision());
    Path chart = OciChartSource.chartFile(stored);
    assertEquals("valued-1.0.0+3.tgz", chart.getFileName().toString());
    ChartFiles packaged = read(chart);
    assertEquals("1.0.0+3", packaged.version());
    assertTrue(
        new String(packaged.files().get("Chart.yaml"), StandardCharsets.UTF_8)
            .contains("version: 1.0.0+3"));
    assertEquals(
        "greeting: hi\nreplicas: 3\n",
        new String(packaged.files().get("values.yaml"), StandardCharsets.UTF_8));
    assertEquals(List.of("values.yaml", "./values-prod.yaml"), HelmChartSource.valuesFiles(stored));

    int before = registry.requests().size();
    assertInstanceOf(FetchResult.Unchanged.class, source.pull(request));
    assertEquals(2, registry.requests().size() - before, String.join("\n", registry.requests()));

    OciChartRequest missing =
        request.withValuesFiles(List.of("values.yaml", "values-missing.yaml"));
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, source.pull(missing));
    assertEquals(FailureReason.VALUES_FILES_FAILED, failed.reason());
    assertEquals("no values file found at path 'values-missing.yaml'", failed.message());
    assertEquals(stored, failed.lastGood().orElseThrow());

    StoredArtifact ignored =
        assertInstanceOf(
                FetchResult.Fetched.class, source.pull(missing.withIgnoreMissingValuesFiles(true)))
            .current();
    assertEquals("1.0.0+3", ignored.revision());
    assertEquals(List.of("values.yaml"), HelmChartSource.valuesFiles(ignored));
    assertEquals(
        "greeting: hello\n",
        new String(
            read(OciChartSource.chartFile(ignored)).files().get("values.yaml"),
            StandardCharsets.UTF_8));
  }

  private static ChartFiles read(Path chart) throws Exception {
    try (var in = Files.newInputStream(chart)) {
      return ChartArchive.read(in, ChartLimits.DEFAULTS, "stored", FailureReason.OCI_LAYER_FAILED);
    }
  }

  @Test
  void anArtifactThatIsNoChartIsRefusedByItsMediaTypes() throws Exception {
    Path tgz = pushes.pack(pushes.chart("plain", "1.0.0", 0));
    pushes.orasPush(
        "charts/plain:1.0.0",
        tgz,
        "application/vnd.cncf.flux.config.v1+json",
        "application/vnd.cncf.flux.content.v1.tar+gzip");

    FetchResult.Failed failed =
        assertInstanceOf(FetchResult.Failed.class, source(0).pull(request("charts", "plain", "*")));

    assertEquals(FailureReason.OCI_PULL_FAILED, failed.reason());
    assertTrue(failed.message().contains("is not a Helm chart"), failed.message());
    assertTrue(
        failed.message().contains("application/vnd.cncf.flux.config.v1+json"), failed.message());
    assertTrue(failed.lastGood().isEmpty());
  }

  @Test
  void aCorruptOrOversizedLayerIsRefusedAndTheLastGoodChartKept() throws Exception {
    pushes.helmPush(pushes.pack(pushes.chart("bad", "1.0.0", 0)), "charts");
    OciChartRequest request = request("charts", "bad", "*");
    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source(0).pull(request)).current();

    Path corrupt = Files.createTempDirectory(work, "corrupt").resolve("bad-1.1.0.tgz");
    Files.writeString(corrupt, "this is no gzip stream");
    pushes.orasPush(
        "charts/bad:1.1.0",
        corrupt,
        OciChartSource.CONFIG_MEDIA_TYPE,
        OciChartSource.CHART_MEDIA_TYPE);
    FetchResult.Failed notAChart =
        assertInstanceOf(FetchResult.Failed.class, source(0).pull(request));
    assertEquals(FailureReason.OCI_LAYER_FAILED, notAChart.reason());
    assertTrue(notAChart.message().contains("is not gzip-compressed"), notAChart.message());
    assertEquals("1.0.0", notAChart.lastGood().orElseThrow().revision());

    Path misnamed = pushes.pack(pushes.chart("other", "1.2.0", 0));
    pushes.orasPush(
        "charts/bad:1.2.0",
        misnamed,
        OciChartSource.CONFIG_MEDIA_TYPE,
        OciChartSource.CHART_MEDIA_TYPE);
    FetchResult.Failed wrongChart =
        assertInstanceOf(FetchResult.Failed.class, source(0).pull(request));
    assertTrue(wrongChart.message().contains("names chart 'other'"), wrongChart.message());

    pushes.helmPush(pushes.pack(pushes.chart("bad", "1.3.0", 64 << 10)), "charts");
    FetchResult.Failed oversized =
        assertInstanceOf(FetchResult.Failed.class, source(32 << 10).pull(request));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, oversized.reason());
    assertTrue(oversized.message().contains("limit of 32768"), oversized.message());
    assertEquals(good.digest(), oversized.lastGood().orElseThrow().digest());
    assertTrue(Files.exists(OciChartSource.chartFile(oversized.lastGood().orElseThrow())));
  }

  @Test
  void aSignedChartIsVerifiedAndOneSignedByAnotherKeyIsRefused() throws Exception {
    CosignSigner trusted = new CosignSigner();
    CosignSigner stranger = new CosignSigner();
    pushes.helmPush(pushes.pack(pushes.chart("signed", "1.0.0", 0)), "charts");
    trusted.sign(
        registry.host(),
        "charts/signed",
        digest("charts/signed", "1.0.0"),
        null,
        null,
        Map.of(),
        "http");
    OciChartRequest request =
        request("charts", "signed", "*")
            .withVerify(
                OciChartRequest.Verify.cosign(
                    Map.of("cosign.pub", trusted.publicKeyPem().getBytes(StandardCharsets.UTF_8))));

    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source(0).pull(request)).current();
    assertTrue(good.verified().orElseThrow().message().contains("cosign.pub"));

    pushes.helmPush(pushes.pack(pushes.chart("signed", "1.1.0", 0)), "charts");
    stranger.sign(
        registry.host(),
        "charts/signed",
        digest("charts/signed", "1.1.0"),
        null,
        null,
        Map.of(),
        "http");
    FetchResult.Failed refused =
        assertInstanceOf(FetchResult.Failed.class, source(0).pull(request));
    assertEquals(FailureReason.VERIFICATION_FAILED, refused.reason());
    assertTrue(refused.message().contains("no matching signatures"), refused.message());
    assertEquals("1.0.0", refused.lastGood().orElseThrow().revision());

    FetchResult.Failed keyless =
        assertInstanceOf(
            FetchResult.Failed.class,
            source(0)
                .pull(
                    request("charts", "signed", "*")
                        .withVerify(new OciChartRequest.Verify("cosign", null))));
    assertEquals(FailureReason.INVALID_SPEC, keyless.reason());
    assertTrue(keyless.message().contains("keyless"), keyless.message());
  }

  @Test
  void aKeylessSignatureIsVerifiedAgainstTheTrustedRootAsAnOciRepositorysIs() throws Exception {
    TestSigstore sigstore = new TestSigstore();
    String issuer = "https://token.actions.example.test";
    String subject = "https://git.example.test/org/charts/.github/workflows/release.yml";
    pushes.helmPush(pushes.pack(pushes.chart("keyless", "1.0.0", 0)), "charts");
    String v1 = digest("charts/keyless", "1.0.0");
    KeylessSigner.attach(
        registry.host(),
        "charts/keyless",
        v1,
        sigstore.bundle(v1, TestSigstore.Signing.of(issuer, subject)));
    KeylessPolicy policy =
        KeylessPolicy.of(
            Map.of(
                KeylessPolicy.TRUSTED_ROOT_KEY,
                sigstore.trustedRootJson().getBytes(StandardCharsets.UTF_8)),
            List.of(new KeylessPolicy.OidcIdentity("^" + issuer + "$", "^" + subject + "$")));
    OciChartRequest request =
        request("charts", "keyless", "*").withVerify(OciChartRequest.Verify.keyless(policy));

    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source(0).pull(request)).current();
    assertTrue(good.verified().orElseThrow().message().contains("keyless"));

    pushes.helmPush(pushes.pack(pushes.chart("keyless", "1.1.0", 0)), "charts");
    String v2 = digest("charts/keyless", "1.1.0");
    KeylessSigner.attach(
        registry.host(),
        "charts/keyless",
        v2,
        sigstore.bundle(v2, TestSigstore.Signing.of(issuer, "https://git.example.test/other")));
    FetchResult.Failed refused =
        assertInstanceOf(FetchResult.Failed.class, source(0).pull(request));
    assertEquals(FailureReason.VERIFICATION_FAILED, refused.reason());
    assertTrue(refused.message().contains("matchOIDCIdentity"), refused.message());
    assertEquals("1.0.0", refused.lastGood().orElseThrow().revision());
  }

  @Test
  void credentialsAndTheRegistryCertificateComeFromTheRepositorysSecrets() throws Exception {
    try (OciRegistry secured =
        OciRegistry.start(
            work.resolve("secured"),
            new OciRegistry.Options(true, false, OciRegistry.Auth.TOKEN))) {
      ChartPushes securedPushes =
          new ChartPushes(
              secured,
              work,
              List.of(
                  "-u",
                  OciRegistry.USERNAME,
                  "-p",
                  OciRegistry.PASSWORD,
                  "--ca-file",
                  secured.caFile().toString()));
      securedPushes.orasPush(
          "private/app:2.1.0",
          pushes.pack(pushes.chart("app", "2.1.0", 0)),
          OciChartSource.CONFIG_MEDIA_TYPE,
          OciChartSource.CHART_MEDIA_TYPE);
      Map<String, byte[]> ca =
          Map.of("ca.crt", secured.ca().certificatePem().getBytes(StandardCharsets.UTF_8));
      OciChartRequest request =
          OciChartRequest.of("helmchart/ns/app", secured.url("private"), "app", "2.x")
              .withCertSecret(ca)
              .withPullSecrets(
                  List.of(
                      Map.of(
                          "username", OciRegistry.USERNAME.getBytes(StandardCharsets.UTF_8),
                          "password", OciRegistry.PASSWORD.getBytes(StandardCharsets.UTF_8))));

      StoredArtifact stored =
          assertInstanceOf(FetchResult.Fetched.class, source(0).pull(request)).current();
      assertEquals("2.1.0", stored.revision());

      String wrong = "wrong-" + OciRegistry.PASSWORD;
      FetchResult.Failed refused =
          assertInstanceOf(
              FetchResult.Failed.class,
              source(0)
                  .pull(
                      request
                          .withKey("helmchart/ns/other")
                          .withPullSecrets(
                              List.of(
                                  Map.of(
                                      "username",
                                      OciRegistry.USERNAME.getBytes(StandardCharsets.UTF_8),
                                      "password",
                                      wrong.getBytes(StandardCharsets.UTF_8))))));
      assertEquals(FailureReason.AUTHENTICATION_FAILED, refused.reason());
      assertFalse(refused.message().contains(wrong), refused.message());

      FetchResult.Failed untrusted =
          assertInstanceOf(
              FetchResult.Failed.class,
              source(0).pull(request.withKey("helmchart/ns/untrusted").withCertSecret(Map.of())));
      assertFalse(untrusted.message().contains(OciRegistry.PASSWORD), untrusted.message());
    }
  }

  /** The manifest digest a tag names, resolved by source-oci's client. */
  private String digest(String repository, String tag) {
    OciFetchRequest request =
        OciFetchRequest.of("digest", registry.url(repository), OciRef.tag(tag)).withInsecure(true);
    return oci.reader(request, Instant.now().plusSeconds(30)).resolve(tag);
  }
}
