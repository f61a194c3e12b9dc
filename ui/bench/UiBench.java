import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.ui.UiOptions;
import dev.capstan.ui.UiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * `capstan ui` against N Kustomizations (dependsOn chains of 10, spread over 20 namespaces) on the
 * cluster of $KUBECONFIG, in headless Chromium: time from navigation to the overview showing all N
 * rows, time from asking for the graph to it showing N nodes (first layout, then a re-render), and
 * the watches and lists the view costs the API server while idle with two pages open.
 */
public final class UiBench {
  private static final String PREFIX = "capstan-ui-bench-";
  private static final int NAMESPACES = 20;

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      populate(client, n);
      Metrics before = Metrics.read(client);
      try (UiServer ui =
          UiServer.start(
              client, UiOptions.on(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))) {
        String url = "http://127.0.0.1:" + ui.address().getPort() + "/";
        WebDriver first = chromium();
        WebDriver second = chromium();
        try {
          // in through the printed address: its cookie lets each browser in
          first.get(ui.url().toString());
          second.get(ui.url().toString());
          for (int run = 1; run <= 3; run++) {
            first.get("about:blank");
            long start = System.nanoTime();
            first.get(url + "#/");
            await(first, "document.querySelectorAll('#ks-table tr.row').length === " + n);
            double afterLoad =
                number(
                    first,
                    "return Number(document.body.dataset.renderedAt)"
                        + " - performance.getEntriesByType('navigation')[0].loadEventEnd");
            double fetch =
                number(
                    first,
                    "return performance.getEntriesByType('resource')"
                        + ".filter(e => e.name.endsWith('/api/overview')).pop().duration");
            System.out.printf(
                "overview %d: %d rows shown %.0f ms after load (%d ms from navigation; fetching"
                    + " /api/overview took %.0f ms of it)%n",
                run, n, afterLoad, (System.nanoTime() - start) / 1_000_000, fetch);
            graph(first, n, run);
          }
          ((JavascriptExecutor) first)
              .executeScript(
                  "document.getElementById('zoom-in').click();"
                      + " document.getElementById('zoom-in').click();"
                      + " document.getElementById('zoom-in').click();");
          Path shots = Path.of("engine", "target", "ui-screenshots");
          Files.createDirectories(shots);
          Files.copy(
              ((TakesScreenshot) first).getScreenshotAs(OutputType.FILE).toPath(),
              shots.resolve("graph-" + n + ".png"),
              StandardCopyOption.REPLACE_EXISTING);
          ((JavascriptExecutor) first)
              .executeScript(
                  "window.graphAsked = performance.now(); document.querySelector('g.ns"
                      + " text.ns-label').dispatchEvent(new MouseEvent('click', {bubbles:"
                      + " true}));");
          await(
              first,
              "(document.querySelector('#graph-svg') || {}).dataset?.nodes !== '"
                  + n
                  + "'"
                  + " && Number(document.body.dataset.renderedAt) > window.graphAsked");
          System.out.printf(
              "graph: one namespace collapsed, new layout of %s nodes shown %.0f ms after the"
                  + " click%n",
              ((JavascriptExecutor) first)
                  .executeScript("return document.querySelector('#graph-svg').dataset.nodes"),
              number(first, "return Number(document.body.dataset.renderedAt) - window.graphAsked"));
          second.get(url + "#/graph");
          await(second, "document.querySelector('#graph-svg') !== null");
          Thread.sleep(10_000);
          Metrics idle = Metrics.read(client);
          System.out.printf(
              "idle, two pages open (overview and graph), 10 s: watches kustomizations +%d,"
                  + " gitrepositories +%d; LISTs of kustomizations +%d, gitrepositories +%d; event"
                  + " streams %d%n",
              idle.watches("kustomizations") - before.watches("kustomizations"),
              idle.watches("gitrepositories") - before.watches("gitrepositories"),
              idle.lists("kustomizations") - before.lists("kustomizations") - 1,
              idle.lists("gitrepositories") - before.lists("gitrepositories") - 1,
              ui.openStreams());
        } finally {
          first.quit();
          second.quit();
        }
      }
      if (!Boolean.getBoolean("keep")) {
        for (int i = 0; i < NAMESPACES; i++) {
          client.namespaces().withName(PREFIX + i).delete();
        }
      }
    }
  }

  private static void graph(WebDriver driver, int n, int run) {
    ((JavascriptExecutor) driver)
        .executeScript("window.graphAsked = performance.now(); location.hash = '#/graph';");
    await(
        driver,
        "(document.querySelector('#graph-svg') || {}).dataset?.nodes === '"
            + n
            + "'"
            + " && Number(document.body.dataset.renderedAt) > window.graphAsked");
    double ms =
        number(driver, "return Number(document.body.dataset.renderedAt) - window.graphAsked");
    System.out.printf(
        "graph %d: %d nodes shown %.0f ms after asking%s%n",
        run, n, ms, run == 1 ? " (laid out ahead when the data came)" : " (layout kept)");
  }

  private static void populate(KubernetesClient client, int n) throws Exception {
    for (int i = 0; i < NAMESPACES; i++) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(PREFIX + i).endMetadata().build())
          .serverSideApply();
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = i;
      done.add(pool.submit(() -> create(client, k)));
    }
    try {
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.printf("%d Kustomizations in %d namespaces%n", n, NAMESPACES);
  }

  private static void create(KubernetesClient client, int i) {
    String ns = PREFIX + (i % NAMESPACES);
    String depends =
        i % 10 == 0
            ? "[]"
            : "[{name: ks-" + (i - 1) + ", namespace: " + PREFIX + ((i - 1) % NAMESPACES) + "}]";
    Kustomization ks =
        client
            .getKubernetesSerialization()
            .unmarshal(
                """
                apiVersion: kustomize.capstan.dev/v1
                kind: Kustomization
                metadata: {name: ks-%d, namespace: %s}
                spec: {sourceRef: {kind: GitRepository, name: repo}, path: ./, interval: 10m, prune: true, dependsOn: %s}
                """
                    .formatted(i, ns, depends),
                Kustomization.class);
    client.resource(ks).serverSideApply();
    boolean ready = i % 13 != 0;
    client
        .resources(Kustomization.class)
        .inNamespace(ns)
        .withName("ks-" + i)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            """
            {"status": {"lastAppliedRevision": "main@sha1:%040d", "conditions": [
              {"type": "Ready", "status": "%s", "reason": "%s", "message": "bench", "lastTransitionTime": "2026-01-01T00:00:00Z"},
              {"type": "Healthy", "status": "True", "reason": "Healthy", "message": "bench", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}
            """
                .formatted(
                    i,
                    ready ? "True" : "False",
                    ready ? "ReconciliationSucceeded" : "DependencyNotReady"));
  }

  private static WebDriver chromium() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000");
    return new ChromeDriver(
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File("/usr/bin/chromedriver"))
            .usingAnyFreePort()
            .build(),
        options);
  }

  private static void await(WebDriver driver, String condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!Boolean.TRUE.equals(
        ((JavascriptExecutor) driver).executeScript("return " + condition))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + condition);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static double number(WebDriver driver, String script) {
    return ((Number) ((JavascriptExecutor) driver).executeScript(script)).doubleValue();
  }

  /** The API server's own counters of open watches and of LIST requests, per resource. */
  record Metrics(String text) {
    static Metrics read(KubernetesClient client) {
      return new Metrics(client.raw(client.getMasterUrl() + "metrics"));
    }

    long watches(String resource) {
      return sum(
          "apiserver_longrunning_requests\\{[^}]*resource=\""
              + resource
              + "\"[^}]*verb=\"WATCH\"[^}]*\\} (\\d+)");
    }

    long lists(String resource) {
      return sum(
          "apiserver_request_total\\{[^}]*resource=\""
              + resource
              + "\"[^}]*verb=\"LIST\"[^}]*\\} (\\d+)");
    }

    private long sum(String regex) {
      Matcher m = Pattern.compile(regex).matcher(text);
      long total = 0;
      while (m.find()) {
        total += Long.parseLong(m.group(1));
      }
      return total;
    }
  }
}
