package dev.capstan.kustomize.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kustomize.chart.ChartRenderException.Stage;
import dev.capstan.kustomize.worker.AnswerRoom;
import dev.capstan.kustomize.worker.Platform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts rendered through the JVM's side: the chart worker this build made, in its sandbox. */
class ChartRendererTest {
  private static final long MIB = 1024 * 1024;
  private static final Path TEST_CHARTS = Path.of("go/testdata/charts");

  @TempDir Path cache;
  @TempDir Path root;

  @BeforeEach
  void charts() throws IOException {
    try (Stream<Path> files = Files.walk(TEST_CHARTS)) {
      for (Path file : files.toList()) {
        Path target = root.resolve(TEST_CHARTS.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private ChartWorkerSettings settings() throws IOException {
    return settings(Duration.ZERO);
  }

  private ChartWorkerSettings settings(Duration growAfter) throws IOException {
    return new ChartWorkerSettings(
        root.toRealPath(),
        cache.resolve("worker"),
        true,
        true,
        512 * MIB,
        Duration.ofSeconds(30),
        64 * MIB,
        2,
        growAfter,
        AnswerRoom.UNBOUNDED);
  }

  private ChartRenderRequest app() {
    return ChartRenderRequest.of(root, "app", "web", "shop")
        .withValues(List.of("replicas: 3\n", "{\"extraLabels\": {\"team\": \"a\"}}"))
        .withSet(List.of("image.tag=2.0,sub.message=set"))
        .withKubeVersion("v1.31.2");
  }

  @Test
  void aChartIsRenderedWithItsHooksNotesAndDigestApart() throws IOException {
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      assertEquals(0, renderer.workersRunning(), "no chart worker before the first render");
      ChartRender render = renderer.render(app());
      assertEquals(1, renderer.workersRunning());
      assertEquals("app", render.chart().name());
      assertEquals("1.2.3", render.chart().version());
      assertEquals("4.5.6", render.chart().appVersion());
      assertTrue(render.chart().digest().startsWith("sha256:"), render.chart().digest());
      assertTrue(render.manifest().startsWith("---\n# Source: app/"), render.manifest());
      assertTrue(render.manifest().contains("replicas: 3"), render.manifest());
      assertTrue(render.manifest().contains("registry.invalid/app:2.0"), render.manifest());
      assertTrue(render.manifest().contains("message: \"set\""), render.manifest());
      assertFalse(render.manifest().contains("helm.sh/hook"), "hooks are apart");
      assertEquals(
          List.of("web-app-post", "web-app-test", "web-app-migrate"),
          render.hooks().stream().map(ChartRender.Hook::name).toList());
      ChartRender.Hook migrate = render.hooks().get(2);
      assertEquals(List.of("pre-install", "pre-upgrade"), migrate.events());
      assertEquals(-5, migrate.weight());
      assertEquals(List.of("before-hook-creation", "hook-succeeded"), migrate.deletePolicies());
      assertEquals("web-app is installed in shop.\nReplicas: 3\n", render.notes());
      // the same worker renders the next chart
      renderer.render(
          ChartRenderRequest.of(root, "needs", "db", "data").withSet(List.of("password=x")));
      assertEquals(1, renderer.workersRunning());
    }
  }

  @Test
  void theTemplateTextIsTheManifestThenEveryHook() throws IOException {
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRender render = renderer.render(app().withSkipTests(true));
      String text = render.templateText();
      assertTrue(text.startsWith("---\n# Source: app/"), text);
      assertEquals(2, render.hooks().size());
      assertTrue(
          text.endsWith(
              "---\n# Source: "
                  + render.hooks().get(1).path()
                  + "\n"
                  + render.hooks().get(1).manifest()
                  + "\n"),
          text);
      ChartRender none = renderer.render(app().withDisableHooks(true));
      assertEquals(List.of(), none.hooks());
      assertFalse(none.templateText().contains("helm.sh/hook"));
    }
  }

  @Test
  void failuresNameTheirStageAndHelmsMessage() throws IOException {
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRenderException required =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(ChartRenderRequest.of(root, "needs", "db", "data")));
      assertEquals(Stage.RENDER, required.stage());
      assertTrue(
          required.getMessage().contains("needs/templates/secret.yaml:6"), required.getMessage());
      assertTrue(required.getMessage().contains("password is required"), required.getMessage());
      ChartRenderException schema =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(app().withSet(List.of("image.tag=S3cr3t-Value!"))));
      assertEquals(Stage.RENDER, schema.stage());
      assertTrue(schema.getMessage().contains("/image/tag"), schema.getMessage());
      assertFalse(schema.getMessage().contains("S3cr3t-Value!"), schema.getMessage());
      ChartRenderException set =
          assertThrows(
              ChartRenderException.class, () -> renderer.render(app().withSet(List.of("a[x]=1"))));
      assertEquals(Stage.VALUES, set.stage());
      assertTrue(set.getMessage().startsWith("failed parsing --set data"), set.getMessage());
      ChartRenderException values =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(app().withValues(List.of("a: [b"))));
      assertEquals(Stage.VALUES, values.stage());
      ChartRenderException missing =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(ChartRenderRequest.of(root, "none", "r", "n")));
      assertEquals(Stage.CHART, missing.stage());
      assertTrue(missing.getMessage().contains("chart not found"), missing.getMessage());
    }
  }

  @Test
  void aChartOutsideTheRootIsRefused(@TempDir Path elsewhere) throws IOException {
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRenderException e =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(ChartRenderRequest.of(elsewhere, ".", "r", "n")));
      assertEquals(Stage.REQUEST, e.stage());
      assertEquals(0, renderer.workersRunning());
    }
  }

  /** A render past its time ends its worker; the next render gets a new one. */
  @Test
  void aTemplateThatLoopsIsStoppedAtTheDeadline() throws IOException {
    try (ChartRenderer renderer =
        new ChartRenderer(settings().withTimeout(Duration.ofSeconds(2)))) {
      ChartRenderException e =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(ChartRenderRequest.of(root, "loop", "r", "n")));
      assertEquals(Stage.LIMIT, e.stage());
      assertEquals("the chart's render did not finish within 2s and was stopped", e.getMessage());
      assertEquals("app", renderer.render(app()).chart().name());
    }
  }

  @Test
  void aTemplatePastTheMemoryLimitEndsItsWorker() throws IOException {
    assumeTrue(Platform.host().os().equals("linux"), "the hard memory limit is Linux's");
    try (ChartRenderer renderer = new ChartRenderer(settings().withMemoryLimitBytes(256 * MIB))) {
      ChartRenderException e =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(ChartRenderRequest.of(root, "grow", "r", "n")));
      assertEquals(Stage.LIMIT, e.stage());
      assertEquals(
          "the chart's render needed more than 256 MiB of memory and was stopped", e.getMessage());
    }
  }

  /** Where the kernel cannot confine the worker, a sandbox that requires it renders nothing. */
  @Test
  void anUnconfinedWorkerRendersOnlyWhereAllowed() throws IOException {
    assumeTrue(Platform.host().confinesWorkers(), "only Linux confines workers");
    ChartWorkerSettings withoutLandlock = settings().withLandlock(false);
    try (ChartRenderer strict = new ChartRenderer(withoutLandlock.withAllowUnconfined(false))) {
      ChartRenderException e = assertThrows(ChartRenderException.class, () -> strict.render(app()));
      assertEquals(Stage.SANDBOX, e.stage());
      assertTrue(e.getMessage().contains("Landlock"), e.getMessage());
    }
    try (ChartRenderer lenient = new ChartRenderer(withoutLandlock)) {
      assertEquals("app", lenient.render(app()).chart().name());
    }
  }

  /** Flux's post-renderers patch the render in order; the hooks too, with Helm 4's strategy. */
  @Test
  void postRenderersPatchTheRenderInOrder() throws IOException {
    ChartPostRenderer.Target deployment =
        new ChartPostRenderer.Target(null, null, "Deployment", null, null, null, null);
    ChartPostRenderer.Target post =
        new ChartPostRenderer.Target(null, "v1", "ConfigMap", "web-app-post", null, null, null);
    ChartPostRenderer first =
        new ChartPostRenderer(
            List.of(
                new ChartPostRenderer.Patch(
                    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: any}\n"
                        + "spec: {replicas: 7}\n",
                    deployment),
                new ChartPostRenderer.Patch(
                    "[{\"op\": \"add\", \"path\": \"/metadata/labels\", \"value\": {\"stage\":"
                        + " \"one\"}}]",
                    post)),
            List.of(
                new ChartPostRenderer.Image("registry.invalid/migrate", null, "2", null),
                new ChartPostRenderer.Image(
                    "registry.invalid/app", "mirror.invalid/app", null, null)));
    ChartPostRenderer second =
        new ChartPostRenderer(
            List.of(
                new ChartPostRenderer.Patch(
                    "- {op: replace, path: /metadata/labels/stage, value: two}\n", post)),
            List.of());
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRender render = renderer.render(app().withPostRenderers(List.of(first, second)));
      assertTrue(render.manifest().contains("replicas: 7"), render.manifest());
      assertTrue(render.manifest().contains("image: mirror.invalid/app:2.0"), render.manifest());
      assertTrue(hook(render, "web-app-post").manifest().contains("stage: two"));
      assertTrue(hook(render, "web-app-migrate").manifest().contains("registry.invalid/migrate:2"));
      ChartRender noHooks =
          renderer.render(
              app()
                  .withPostRenderers(List.of(first))
                  .withPostRenderStrategy(PostRenderStrategy.NOHOOKS));
      assertTrue(noHooks.manifest().contains("image: mirror.invalid/app:2.0"));
      assertTrue(
          hook(noHooks, "web-app-migrate").manifest().contains("registry.invalid/migrate:1"));
      assertFalse(hook(noHooks, "web-app-post").manifest().contains("stage"));
    }
  }

  private static ChartRender.Hook hook(ChartRender render, String name) {
    return render.hooks().stream().filter(h -> h.name().equals(name)).findFirst().orElseThrow();
  }

  /** A chart's lookup is answered by the request's lookups: the object, nothing, or a refusal. */
  @Test
  void lookupsAreAnsweredByTheRequestsLookups() throws IOException {
    List<LookupQuery> asked = new ArrayList<>();
    ChartLookups cluster =
        lookup -> {
          asked.add(lookup);
          return lookup.list()
              ? new LookupAnswer.Found(
                  "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"items\":[]}")
              : new LookupAnswer.Found(
                  "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":"
                      + "{\"name\":\"credentials\"},\"data\":{\"password\":\"aHVudGVyMg==\"}}");
        };
    ChartRenderRequest lookup = ChartRenderRequest.of(root, "lookup", "r", "shop");
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRender found = renderer.render(lookup.withLookups(cluster));
      assertEquals(
          List.of(
              new LookupQuery("v1", "Secret", "shop", "credentials"),
              new LookupQuery("v1", "ConfigMap", "", "")),
          asked);
      assertTrue(found.manifest().contains("found: \"yes\""), found.manifest());
      assertTrue(found.manifest().contains("password: \"hunter2\""), found.manifest());
      assertTrue(found.manifest().contains("listed: \"3\""), found.manifest());
      ChartRender missing = renderer.render(lookup.withLookups(l -> new LookupAnswer.Missing()));
      assertTrue(missing.manifest().contains("found: \"no\""), missing.manifest());
      ChartRender none = renderer.render(lookup);
      assertTrue(none.manifest().contains("found: \"no\""), "helm template's lookup");
      ChartRenderException refused =
          assertThrows(
              ChartRenderException.class,
              () ->
                  renderer.render(
                      lookup.withLookups(
                          l -> new LookupAnswer.Refused(l.describe() + " is forbidden"))));
      assertEquals(Stage.RENDER, refused.stage());
      assertTrue(
          refused.getMessage().contains("v1 Secret 'shop/credentials' is forbidden"),
          refused.getMessage());
      ChartRenderException broken =
          assertThrows(
              ChartRenderException.class,
              () ->
                  renderer.render(
                      lookup.withLookups(
                          l -> {
                            throw new IllegalStateException("S3cr3t-Value!");
                          })));
      assertTrue(broken.getMessage().contains("cannot be read"), broken.getMessage());
      assertFalse(broken.getMessage().contains("S3cr3t"), broken.getMessage());
      assertEquals(1, renderer.workersRunning(), "the worker serves after every lookup");
    }
  }

  /**
   * A render waits the settings' growAfter for a busy worker before another one starts: a render
   * held in its lookup keeps the only worker, and the next render waits for it.
   */
  @Test
  void aRenderWaitsForABusyWorkerBeforeAnotherStarts() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    ChartLookups held =
        lookup -> {
          asked.countDown();
          await(answer);
          return new LookupAnswer.Missing();
        };
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (ChartRenderer renderer = new ChartRenderer(settings(Duration.ofMinutes(5)))) {
      ChartRenderRequest lookup = ChartRenderRequest.of(root, "lookup", "r", "shop");
      Future<ChartRender> first = threads.submit(() -> renderer.render(lookup.withLookups(held)));
      assertTrue(asked.await(30, TimeUnit.SECONDS), "the first render asked its lookup");
      Future<ChartRender> second = threads.submit(() -> renderer.render(app()));
      Thread.sleep(500);
      assertFalse(second.isDone(), "the second render waits for the busy worker");
      assertEquals(1, renderer.workersRunning());
      answer.countDown();
      assertTrue(first.get(30, TimeUnit.SECONDS).manifest().contains("found: \"no\""));
      assertEquals("app", second.get(30, TimeUnit.SECONDS).chart().name());
      assertEquals(1, renderer.workersRunning(), "both rendered in one worker");
    } finally {
      threads.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A chart from an OCI artifact: the tag must be its version, and the digest becomes the version's
   * build metadata.
   */
  @Test
  void anOciChartsVersionIsPinnedOrRefused() throws IOException {
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRender pinned =
          renderer.render(app().withVersionPin(new ChartVersionPin("1.2.3", "0123456789ab")));
      assertEquals("1.2.3+0123456789ab", pinned.chart().version());
      assertEquals("1.2.3", renderer.render(app()).chart().version(), "no pin: the chart's own");
      ChartRenderException refused =
          assertThrows(
              ChartRenderException.class,
              () ->
                  renderer.render(
                      app().withVersionPin(new ChartVersionPin("2.0.0", "0123456789ab"))));
      assertEquals(Stage.VERSION, refused.stage());
      assertEquals(
          "artifact revision 2.0.0 does not match chart version 1.2.3", refused.getMessage());
    }
  }

  /** Lookups past the bound a render has fail its template, naming the bound. */
  @Test
  void aRenderMakesBoundedLookups() {
    LookupRelay relay =
        new LookupRelay(
            l -> new LookupAnswer.Found("{}"),
            new ObjectMapper(),
            System.nanoTime() + Duration.ofMinutes(1).toNanos());
    byte[] question =
        "{\"question\":{\"lookup\":{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"name\":\"a\"}}}"
            .getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < LookupRelay.MAX_LOOKUPS; i++) {
      assertEquals("{\"found\":{}}", new String(relay.answer(question), StandardCharsets.UTF_8));
    }
    assertTrue(
        new String(relay.answer(question), StandardCharsets.UTF_8)
            .contains("a render makes at most 100"));
    LookupRelay large =
        new LookupRelay(
            l -> new LookupAnswer.Found("\"" + "x".repeat(LookupRelay.MAX_ANSWER_BYTES) + "\""),
            new ObjectMapper(),
            System.nanoTime() + Duration.ofMinutes(1).toNanos());
    assertTrue(
        new String(large.answer(question), StandardCharsets.UTF_8)
            .contains("the answer is larger than 8 MiB"));
    LookupRelay late =
        new LookupRelay(
            l -> new LookupAnswer.Found("{}"), new ObjectMapper(), System.nanoTime() - 1);
    assertTrue(
        new String(late.answer(question), StandardCharsets.UTF_8).contains("past its deadline"));
  }

  /**
   * A chart whose dependency is missing from charts/, and a schema pattern that backtracks
   * exponentially elsewhere (Go's regular expressions are linear), fail at once with a message that
   * names what is wrong and quotes no value.
   */
  @Test
  void aMissingDependencyAndAPathologicalPatternFailClearly() throws IOException {
    copy(root.resolve("app"), root.resolve("nodep"));
    try (Stream<Path> sub = Files.walk(root.resolve("nodep/charts/sub"))) {
      for (Path file : sub.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
    try (ChartRenderer renderer = new ChartRenderer(settings())) {
      ChartRenderException missing =
          assertThrows(
              ChartRenderException.class,
              () -> renderer.render(ChartRenderRequest.of(root, "nodep", "r", "n")));
      assertEquals(Stage.CHART, missing.stage());
      assertTrue(
          missing.getMessage().contains("missing in charts/ directory: sub"), missing.getMessage());
      String value = "a".repeat(100_000) + "!";
      long start = System.nanoTime();
      ChartRenderException pattern =
          assertThrows(
              ChartRenderException.class,
              () ->
                  renderer.render(
                      ChartRenderRequest.of(root, "regex", "r", "n")
                          .withValues(List.of("name: " + value))));
      assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 10);
      assertEquals(Stage.RENDER, pattern.stage());
      assertTrue(pattern.getMessage().contains("/name"), pattern.getMessage());
      assertFalse(pattern.getMessage().contains("aaaa"), pattern.getMessage());
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  /** helm template trims the manifest as Go trims: a no-break space too, not U+001C. */
  @Test
  void theManifestIsTrimmedAsGoTrimsIt() {
    ChartRender render =
        new ChartRender(
            new ChartRender.Chart("c", "1", "", "sha256:0"),
            "\u00a0\n---\nkind: A\n\u2028\u001c\n\u3000",
            List.of(),
            "");
    assertEquals("---\nkind: A\n\u2028\u001c\n", render.templateText());
  }
}
