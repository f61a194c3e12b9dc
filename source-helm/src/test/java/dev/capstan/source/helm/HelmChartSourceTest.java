package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.testing.TestPki;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts from a real repository server on loopback and from a source's tree, stored. */
class HelmChartSourceTest {
  private static final String KEY = "helmchart/apps/podinfo";

  @TempDir Path storage;
  @TempDir Path tree;
  private ArtifactStore store;
  private HelmIndexSource indexes;
  private HelmChartSource charts;
  private IndexServer server;
  private final Map<String, byte[]> versions = new LinkedHashMap<>();

  @BeforeEach
  void start() {
    store = new ArtifactStore(storage, Clock.systemUTC());
    indexes = new HelmIndexSource(store, Clock.systemUTC(), IndexLimits.DEFAULTS);
    charts =
        new HelmChartSource(
            store,
            Clock.systemUTC(),
            ChartLimits.DEFAULTS,
            IndexLimits.DEFAULTS,
            ReadDeadlines.withOwnThread(Clock.systemUTC()));
    server = IndexServer.http();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void theHighestVersionInTheRangeIsDownloadedAndStoredWithItsVersionAsRevision()
      throws IOException {
    publish("6.5.3", TestCharts.chart("podinfo", "6.5.3").tgz());
    publish("6.5.4", TestCharts.chart("podinfo", "6.5.4").tgz());

    StoredArtifact stored = fetched(fromRepository(ChartRequest.of(KEY, "podinfo")));

    assertEquals("6.5.4", stored.revision());
    assertEquals("podinfo", stored.metadata().get(HelmChartSource.CHART_NAME));
    Path file = HelmChartSource.chartFile(stored);
    assertEquals("podinfo-6.5.4.tgz", file.getFileName().toString());
    assertEquals(TestCharts.digest(versions.get("6.5.4")), stored.digest().substring(7));
  }

  @Test
  void anUnchangedIndexEntryDownloadsNothingAndANewVersionIsPickedUp() {
    publish("1.0.0", TestCharts.chart("podinfo", "1.0.0").tgz());
    fetched(fromRepository(ChartRequest.of(KEY, "podinfo")));
    int requests = server.seen().size();

    FetchResult again = fromRepository(ChartRequest.of(KEY, "podinfo"));

    assertInstanceOf(FetchResult.Unchanged.class, again);
    assertEquals(requests + 1, server.seen().size(), "only the index was asked for");
    publish("1.1.0", TestCharts.chart("podinfo", "1.1.0").tgz());
    assertEquals("1.1.0", fetched(fromRepository(ChartRequest.of(KEY, "podinfo"))).revision());
  }

  @Test
  void valuesFilesOfTheChartAreMergedIntoItsValuesAndTheVersionGetsTheGeneration()
      throws IOException {
    publish(
        "1.0.0",
        TestCharts.chart("podinfo", "1.0.0")
            .file("podinfo/values-prod.yaml", "replicas: 3\n")
            .tgz());

    StoredArtifact stored =
        fetched(
            fromRepository(
                ChartRequest.of(KEY, "podinfo")
                    .withValuesFiles(List.of("values.yaml", "values-prod.yaml"))
                    .withVersionMetadata(ChartVersions.metadata(null, 2L))));

    assertEquals("1.0.0+2", stored.revision());
    ChartFiles packaged = packaged(stored);
    assertEquals("1.0.0+2", packaged.version());
    assertEquals(
        "image:\n  tag: stable\nreplicas: 3\n",
        new String(packaged.files().get("values.yaml"), StandardCharsets.UTF_8));
    assertEquals(List.of("values.yaml", "values-prod.yaml"), HelmChartSource.valuesFiles(stored));
  }

  @Test
  void badChartsEachFailWithTheirReasonAndKeepTheLastGoodArtifact() {
    publish("1.0.0", TestCharts.chart("podinfo", "1.0.0").tgz());
    StoredArtifact good = fetched(fromRepository(ChartRequest.of(KEY, "podinfo")));

    byte[] whole = TestCharts.chart("podinfo", "1.1.0").tgz();
    publish("1.1.0", Arrays.copyOf(whole, whole.length / 2));
    assertFailed("is truncated or not a tar archive", good);

    publish("1.1.0", TestCharts.chart("podinfo", "1.1.0").symlink("podinfo/x", "/etc").tgz());
    assertFailed("holds a link ('podinfo/x')", good);

    publish("1.1.0", TestCharts.chart("podinfo", "1.1.0").file("podinfo/../../x", "x").tgz());
    assertFailed("a path leaving the chart", good);

    publish("1.1.0", TestCharts.chart("other", "1.1.0").tgz());
    assertFailed("is named 'other', the index lists it as 'podinfo'", good);

    byte[] listed = TestCharts.chart("podinfo", "1.1.0").tgz();
    publish("1.1.0", listed);
    server.serveFile(
        "podinfo-1.1.0.tgz", TestCharts.chart("podinfo", "1.1.0").file("podinfo/x", "y").tgz());
    assertFailed("the index says sha256:" + TestCharts.digest(listed), good);
  }

  @Test
  void anOversizedChartIsRefusedOnItsLengthAndWhileReading() {
    HelmChartSource small =
        new HelmChartSource(
            store,
            Clock.systemUTC(),
            new ChartLimits(1000, 1000, 10_000, 100),
            IndexLimits.DEFAULTS,
            ReadDeadlines.withOwnThread(Clock.systemUTC()));
    byte[] big = new byte[5000];
    publish("1.0.0", big);
    FetchResult declared = small.fromRepository(ChartRequest.of(KEY, "podinfo"), repo(), index());
    assertTrue(
        assertInstanceOf(FetchResult.Failed.class, declared)
            .message()
            .contains("larger than 1000 bytes (the bound of a chart)"));

    server.chunked(true);
    FetchResult streamed = small.fromRepository(ChartRequest.of(KEY, "podinfo"), repo(), index());
    assertTrue(
        assertInstanceOf(FetchResult.Failed.class, streamed)
            .message()
            .contains("larger than 1000 bytes (the bound of a chart)"));
  }

  @Test
  void aVersionThatIsNotInTheIndexIsAnInvalidReference() {
    publish("1.0.0", TestCharts.chart("podinfo", "1.0.0").tgz());

    FetchResult result = fromRepository(ChartRequest.of(KEY, "podinfo").withVersion("2.x"));

    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
    assertEquals(FailureReason.INVALID_CHART_REFERENCE, failed.reason());
    assertTrue(failed.message().startsWith("no chart version of 'podinfo' matches '2.x'"));
  }

  @Test
  void basicAuthenticationOfTheRepositoryIsSentForTheChart() {
    publish("1.0.0", TestCharts.chart("podinfo", "1.0.0").tgz());
    server.requireBasic("user", "s3cret");
    HelmIndexRequest repository =
        repo()
            .withCredentials(
                Map.of(
                    "username", "user".getBytes(StandardCharsets.UTF_8),
                    "password", "s3cret".getBytes(StandardCharsets.UTF_8)))
            .withInsecure(true);
    StoredArtifact index =
        assertInstanceOf(FetchResult.Fetched.class, indexes.fetch(repository)).current();

    FetchResult result = charts.fromRepository(ChartRequest.of(KEY, "podinfo"), repository, index);

    assertEquals("1.0.0", fetched(result).revision());
  }

  @Test
  void aChartDirectoryIsPackagedWithTheSourcesShortRevision() throws IOException {
    Path chart = tree.resolve("charts/app");
    Files.createDirectories(chart.resolve("templates"));
    Files.writeString(chart.resolve("Chart.yaml"), TestCharts.chartYaml("app", "0.3.0"));
    Files.writeString(chart.resolve("values.yaml"), "replicas: 1\n");
    Files.writeString(chart.resolve("templates/cm.yaml"), "kind: ConfigMap\n");
    StoredArtifact source =
        new StoredArtifact(
            "main@sha1:0123456789abcdef0123456789abcdef01234567",
            "sha256:" + "a".repeat(64),
            tree,
            Instant.now());

    ChartRequest request =
        ChartRequest.of("helmchart/apps/app", "./charts/app")
            .withVersionMetadata(ChartVersions.metadata(source.revision(), null));
    StoredArtifact stored = fetched(charts.fromDirectory(request, source));

    assertEquals("0.3.0+0123456789ab", stored.revision());
    ChartFiles packaged = packaged(stored);
    assertEquals("app", packaged.name());
    assertEquals("0.3.0+0123456789ab", packaged.version());
    assertInstanceOf(FetchResult.Unchanged.class, charts.fromDirectory(request, source));

    FetchResult missing =
        charts.fromDirectory(
            request.withValuesFiles(List.of("charts/app/values-missing.yaml")), source);
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, missing);
    assertEquals(FailureReason.VALUES_FILES_FAILED, failed.reason());
    assertEquals("no values file found at path 'charts/app/values-missing.yaml'", failed.message());
    assertEquals(stored, failed.lastGood().orElseThrow());
  }

  @Test
  void aDependencyOnARepositoryIsDownloadedThroughTheRepositoryWithItsUrl() throws IOException {
    publish("1.2.0", TestCharts.chart("podinfo", "1.2.0").tgz());
    Path chart = tree.resolve("umbrella");
    Files.createDirectories(chart);
    Files.writeString(
        chart.resolve("Chart.yaml"),
        TestCharts.chartYaml("umbrella", "1.0.0")
            + "dependencies:\n- name: podinfo\n  version: 1.x\n  repository: "
            + server.url()
            + "/\n");
    StoredArtifact source =
        new StoredArtifact(
            "main@sha1:" + "b".repeat(40), "sha256:" + "b".repeat(64), tree, Instant.now());
    ChartRequest request = ChartRequest.of("helmchart/apps/umbrella", "umbrella");

    FetchResult none = charts.fromDirectory(request, source, DependencyRepositories.NONE);
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, none);
    assertEquals(FailureReason.DEPENDENCY_BUILD_FAILED, failed.reason());
    assertTrue(
        failed.message().contains("dependency 'podinfo' of repository '" + server.url() + "/'"),
        failed.message());

    StoredArtifact index = index();
    StoredArtifact stored =
        fetched(
            charts.fromDirectory(
                request,
                source,
                url ->
                    url.equals(server.url() + "/")
                        ? Optional.of(new DependencyRepositories.Repository(repo(), index))
                        : Optional.empty()));

    assertTrue(packaged(stored).files().containsKey("charts/podinfo-1.2.0.tgz"));
  }

  @Test
  void passedCredentialsNeverGoInClearTextToAChartOfAnotherHost() throws Exception {
    TestPki pki = TestPki.create("charts");
    byte[] tgz = TestCharts.chart("podinfo", "1.0.0").tgz();
    server.serveFile("podinfo-1.0.0.tgz", tgz);
    String listed =
        TestCharts.index("podinfo", Map.of("1.0.0", tgz))
            .replace("- podinfo-1.0.0.tgz", "- " + server.url() + "/podinfo-1.0.0.tgz");
    try (IndexServer secure = IndexServer.https(tls(pki.server(TestPki.KeyType.EC)))) {
      secure.serve(listed.getBytes(StandardCharsets.UTF_8));
      HelmIndexRequest repository =
          HelmIndexRequest.of("helmrepository/apps/secure", secure.url())
              .withCredentials(
                  Map.of(
                      "username", "reader".getBytes(StandardCharsets.UTF_8),
                      "password", "s3cret".getBytes(StandardCharsets.UTF_8)))
              .withCertSecret(Map.of("ca.crt", pki.caPem().getBytes(StandardCharsets.UTF_8)))
              .withPassCredentials(true);
      StoredArtifact index = indexes.fetch(repository).artifact().orElseThrow();

      fetched(charts.fromRepository(ChartRequest.of(KEY, "podinfo"), repository, index));

      assertEquals("Basic cmVhZGVyOnMzY3JldA==", secure.seen().get(0).header("Authorization"));
      assertNull(server.seen().get(0).header("Authorization"));
    }
  }

  private static SSLContext tls(TestPki.Issued issued) throws GeneralSecurityException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(issued.keyStore(), TestPki.PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  private void publish(String version, byte[] tgz) {
    versions.put(version, tgz);
    server.serve(TestCharts.index("podinfo", versions).getBytes(StandardCharsets.UTF_8));
    server.serveFile("podinfo-" + version + ".tgz", tgz);
  }

  private HelmIndexRequest repo() {
    return HelmIndexRequest.of("helmrepository/apps/podinfo", server.url());
  }

  private StoredArtifact index() {
    return indexes.fetch(repo()).artifact().orElseThrow();
  }

  private FetchResult fromRepository(ChartRequest request) {
    return charts.fromRepository(request, repo(), index());
  }

  private void assertFailed(String expected, StoredArtifact lastGood) {
    FetchResult result = fromRepository(ChartRequest.of(KEY, "podinfo"));
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
    assertEquals(FailureReason.CHART_PULL_FAILED, failed.reason());
    assertTrue(failed.message().contains(expected), failed.message());
    assertEquals(lastGood, failed.lastGood().orElseThrow());
  }

  private static StoredArtifact fetched(FetchResult result) {
    return assertInstanceOf(FetchResult.Fetched.class, result, result.toString()).current();
  }

  private static ChartFiles packaged(StoredArtifact stored) throws IOException {
    return ChartArchive.read(
        new ByteArrayInputStream(Files.readAllBytes(HelmChartSource.chartFile(stored))),
        ChartLimits.DEFAULTS,
        "the stored chart",
        FailureReason.CHART_PULL_FAILED);
  }
}
