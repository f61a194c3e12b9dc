package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.cli.CapstanMain;
import dev.capstan.cli.ui.LaunchPage;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.ui.UiOptions;
import dev.capstan.ui.UiServer;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import picocli.CommandLine;

/**
 * {@code capstan ui} in a real browser (headless Chromium) against the test cluster: the overview
 * lists what the cluster holds, the graph shows a chain and the edge it waits on, a broken custom
 * resource turns its row and node unhealthy without a reload, actions go through with the user's
 * credentials or come back with the API server's refusal, and a Kustomization's drift shows what
 * changed in the cluster (Secret values masked, never in the page), a source Secret the user cannot
 * read, and a comparison that ran past its deadline. The {@code capstan ui} command itself, serving
 * beyond loopback and locked down: nothing without the address it printed, which leaves no token in
 * the address bar or the history, no answer to a Host it was not given, and drift across namespaces
 * refused as the engine refuses it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UiBrowserIT extends EngineTestBase {
  private static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");
  private static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.ui.e2e.capstan.dev}
      spec:
        group: ui.e2e.capstan.dev
        names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}}
          schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      """;
  private static final String EXPRS =
      """
        healthCheckExprs:
        - apiVersion: ui.e2e.capstan.dev/v1
          kind: Gadget
          current: "has(status.phase) && status.phase == 'Ready'"
          failed: "has(status.phase) && status.phase == 'Failed'"
      """;
  private static final String NO_NODE = "      nodeSelector: {capstan.dev/no-such-node: \"true\"}";
  private static final String VIEWER = "capstan-ui-viewer";

  /** The commit's subject: markup in it must reach the page as text. */
  private static final String SUBJECT = "Add <b>drift</b> fixtures & more";

  private static final String GIT_SECRET = "plain-s3cret-from-git";
  private static final String CLUSTER_SECRET = "changed-in-the-cluster";
  private static final String TEAM = "capstan-ui-team";

  /** A web site's DNS name that now resolves to this machine. */
  private static final String REBOUND = "rebound.capstan-ui.test";

  /** A name given with --allow-host. */
  private static final String ALLOWED = "view.capstan-ui.test";

  private static UiServer ui;
  private static UiServer viewerUi;
  private static KubernetesClient viewerClient;
  private static UiServer teamUi;
  private static KubernetesClient teamClient;
  private static WebDriver browser;
  private static Path kubeconfig;

  /** {@code capstan ui} as a user starts it, run by the tests below that need its options. */
  private static CliView cliView;

  /** A namespace of a Kustomization whose source is in this class's namespace. */
  private static String other;

  @BeforeAll
  static void startView(ClusterAccess cluster) throws IOException {
    kubeconfig = cluster.kubeconfig();
    installCrd();
    git.commit(
        Map.of(
            "base/gadget.yaml",
                """
                apiVersion: ui.e2e.capstan.dev/v1
                kind: Gadget
                metadata: {name: gear}
                spec: {size: 3}
                """,
            "infra/db.yaml", Manifests.deployment("db", NO_NODE, 600),
            "app/config.yaml", Manifests.configMap("app-settings", "x"),
            "drift/settings.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: drift-settings}
                data: {color: blue, size: "3"}
                """,
            "drift/secret.yaml",
                """
                apiVersion: v1
                kind: Secret
                metadata: {name: drift-secret}
                data: {password: %s, user: %s}
                """
                    .formatted(base64(GIT_SECRET), base64("admin-user")),
            "locked/config.yaml", Manifests.configMap("locked-settings", "y"),
            "slow/config.yaml", Manifests.configMap("slow-settings", "z"),
            "warned/config.yaml", Manifests.configMap("warned-settings", "git")),
        SUBJECT + "\n\nThe body is not shown.");
    engine.gitRepository("repo", git.url());
    engine.kustomization("base", "repo", "./base", EXPRS);
    engine.kustomization(
        "infra", "repo", "./infra", "  wait: true\n  timeout: 10m\n  dependsOn: [{name: base}]");
    engine.kustomization("app", "repo", "./app", "  dependsOn: [{name: infra}]");
    unreconciledSource(
        "OCIRepository", "bundle", "oci://registry.invalid/org/bundle", BUNDLE_REVISION);
    unreconciledSource(
        "HelmRepository", "charts", "https://charts.invalid/stable", CHARTS_REVISION);
    EngineFixture.eventually(Duration.ofSeconds(60)).untilAsserted(() -> setPhase("Ready"));
    engine.awaitCondition("base", "Healthy", Duration.ofSeconds(60), EngineTestBase::isTrue);
    engine.awaitCondition(
        "app", "Ready", Duration.ofSeconds(60), c -> "DependencyNotReady".equals(c.getReason()));

    ui = UiServer.start(engine.client, UiOptions.on(loopback()));
    grantReadOnly();
    viewerClient = impersonating(VIEWER);
    viewerUi = UiServer.start(viewerClient, UiOptions.on(loopback()));
    grantNamespaceRead();
    teamClient = impersonating(TEAM);
    teamUi =
        UiServer.start(
            teamClient, UiOptions.on(loopback()).withNamespaces(List.of(ns(), "kube-system")));
    browser = chromium();
    Files.createDirectories(SCREENSHOTS);
    for (UiServer server : List.of(ui, viewerUi, teamUi)) {
      enter(server.url().toString());
    }
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  /** Opens the address a view printed: its cookie lets this browser in from then on. */
  private static void enter(String printed) {
    browser.get(printed);
    String plain = printed.substring(0, printed.indexOf('?'));
    awaitWithin(Duration.ofSeconds(20), () -> assertEquals(plain, browser.getCurrentUrl()));
  }

  @AfterAll
  static void stopView() throws InterruptedException {
    if (cliView != null) {
      cliView.close();
    }
    if (other != null) {
      // Before the engine stops: it removes the finalizer of the Kustomization it applied.
      engine.client.resources(Kustomization.class).inNamespace(other).delete();
      EngineFixture.eventually(Duration.ofSeconds(60))
          .until(
              () ->
                  engine
                      .client
                      .resources(Kustomization.class)
                      .inNamespace(other)
                      .list()
                      .getItems()
                      .isEmpty());
      engine.client.namespaces().withName(other).delete();
    }
    if (browser != null) {
      browser.quit();
    }
    if (ui != null) {
      ui.close();
    }
    if (viewerUi != null) {
      viewerUi.close();
    }
    if (viewerClient != null) {
      viewerClient.close();
    }
    if (teamUi != null) {
      teamUi.close();
    }
    if (teamClient != null) {
      teamClient.close();
    }
    if (engine != null) {
      engine.client.rbac().clusterRoleBindings().withName(VIEWER + "-" + ns()).delete();
      engine.client.rbac().clusterRoles().withName(VIEWER + "-" + ns()).delete();
    }
  }

  @Test
  @Order(1)
  void overviewListsWhatTheClusterHolds() throws IOException {
    browser.get(url(ui, "/#/"));
    awaitElement(By.cssSelector("tr.row[data-id='Kustomization/" + ns() + "/app']"));
    awaitElement(By.cssSelector("tr.row[data-id='GitRepository/" + ns() + "/repo']"));
    String bundle = "#table-OCIRepositories tr.row[data-id='OCIRepository/" + ns() + "/bundle']";
    awaitElement(By.cssSelector(bundle));
    eventually(
        () ->
            assertTrue(
                browser.findElement(By.cssSelector(bundle)).getText().contains(BUNDLE_REVISION),
                "the OCIRepository's row shows its artifact revision"));
    String charts = "#table-HelmRepositories tr.row[data-id='HelmRepository/" + ns() + "/charts']";
    awaitElement(By.cssSelector(charts));
    eventually(
        () ->
            assertTrue(
                browser.findElement(By.cssSelector(charts)).getText().contains(CHARTS_REVISION),
                "the HelmRepository's row shows its index's revision"));
    eventually(
        () -> assertEquals("ready", state("tr.row[data-id='Kustomization/" + ns() + "/base']")));
    assertTrue(
        browser
            .findElement(By.cssSelector("tr.row[data-id='Kustomization/" + ns() + "/app']"))
            .getText()
            .contains("is not ready"),
        "the app's row shows why it waits");
    // other test classes may have Kustomizations in the shared cluster at the same time
    choose("ns-filter", ns());
    browser.findElement(By.id("search")).sendKeys("infra");
    // infra itself, and the app whose message names it
    eventually(
        () -> assertEquals(2, browser.findElements(By.cssSelector("#ks-table tr.row")).size()));
    choose("status-filter", "ready");
    eventually(
        () -> assertEquals(0, browser.findElements(By.cssSelector("#ks-table tr.row")).size()));
    choose("status-filter", "");
    browser.findElement(By.id("search")).clear();
    browser.findElement(By.id("search")).sendKeys(" ");
    eventually(
        () -> assertEquals(3, browser.findElements(By.cssSelector("#ks-table tr.row")).size()));
    assertTrue(
        Integer.parseInt(browser.findElement(By.cssSelector("#count-total b")).getText()) >= 3,
        "the counts are over every namespace in view");
    screenshot("overview");
  }

  @Test
  @Order(2)
  void graphShowsTheChainAndTheWaitingEdge() throws IOException {
    browser.get(url(ui, "/#/graph"));
    String app = "Kustomization/" + ns() + "/app";
    String infra = "Kustomization/" + ns() + "/infra";
    String base = "Kustomization/" + ns() + "/base";
    awaitElement(By.cssSelector("g.node[data-id='" + app + "']"));
    awaitElement(By.cssSelector("path.edge[data-from='" + infra + "'][data-to='" + base + "']"));
    WebElement waiting =
        awaitElement(By.cssSelector("path.edge[data-from='" + app + "'][data-to='" + infra + "']"));
    assertTrue(waiting.getAttribute("class").contains("waiting"), waiting.getAttribute("class"));
    assertFalse(
        browser
            .findElement(
                By.cssSelector("path.edge[data-from='" + infra + "'][data-to='" + base + "']"))
            .getAttribute("class")
            .contains("waiting"),
        "infra's dependency is Ready");
    eventually(() -> assertEquals("ready", state("g.node[data-id='" + base + "']")));
    screenshot("graph");

    // collapse the namespace into one node (the worst state of its members), then expand it again
    browser
        .findElement(By.cssSelector("g.ns[data-namespace='" + ns() + "'] text.ns-label"))
        .click();
    WebElement group = awaitElement(By.cssSelector("g.node[data-id='Namespace/" + ns() + "']"));
    assertEquals("failing", group.getAttribute("data-state"));
    assertTrue(browser.findElements(By.cssSelector("g.node[data-id='" + app + "']")).isEmpty());
    group.click();
    awaitElement(By.cssSelector("g.node[data-id='" + app + "']"));
  }

  @Test
  @Order(3)
  void aBrokenCustomResourceTurnsRowAndNodeUnhealthyWithoutAReload() throws IOException {
    String base = "Kustomization/" + ns() + "/base";
    browser.get(url(ui, "/#/graph"));
    awaitElement(By.cssSelector("g.node[data-id='" + base + "'][data-state='ready']"));
    String rendered = browser.findElement(By.tagName("body")).getAttribute("data-rendered");
    setPhase("Failed");
    engine.awaitCondition("base", "Healthy", Duration.ofSeconds(15), EngineTestBase::isFalse);
    long seen = System.nanoTime();
    awaitWithin(
        Duration.ofSeconds(2),
        () -> assertEquals("failing", state("g.node[data-id='" + base + "']")));
    assertTrue(Duration.ofNanos(System.nanoTime() - seen).compareTo(Duration.ofSeconds(2)) < 0);
    assertTrue(
        Integer.parseInt(browser.findElement(By.tagName("body")).getAttribute("data-rendered"))
            > Integer.parseInt(rendered),
        "the page re-rendered from the event stream");
    screenshot("graph-unhealthy");

    browser.get(url(ui, "/#/"));
    awaitElement(By.cssSelector("tr.row[data-id='" + base + "'][data-state='failing']"));
    setPhase("Ready");
    engine.awaitCondition("base", "Healthy", Duration.ofSeconds(15), EngineTestBase::isTrue);
    awaitWithin(
        Duration.ofSeconds(2),
        () -> assertEquals("ready", state("tr.row[data-id='" + base + "']")));
    setPhase("Failed");
    engine.awaitCondition("base", "Healthy", Duration.ofSeconds(15), EngineTestBase::isFalse);
    awaitWithin(
        Duration.ofSeconds(2),
        () -> assertEquals("failing", state("tr.row[data-id='" + base + "']")));
    screenshot("overview-unhealthy");
    setPhase("Ready");
  }

  @Test
  @Order(4)
  void kustomizationPageShowsConditionsHistoryInventoryAndSource() throws IOException {
    var base = engine.kustomization("base");
    engine
        .client
        .v1()
        .events()
        .inNamespace(ns())
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withName("base.ui-test")
                .withNamespace(ns())
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion("kustomize.capstan.dev/v1")
                .withKind("Kustomization")
                .withName("base")
                .withNamespace(ns())
                .withUid(base.getMetadata().getUid())
                .endInvolvedObject()
                .withType("Normal")
                .withReason("ReconciliationSucceeded")
                .withMessage("Applied revision: test")
                .withCount(1)
                .withLastTimestamp(Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"))
                .withNewSource()
                .withComponent("capstan")
                .endSource()
                .build())
        .create();
    browser.get(url(ui, "/#/ks/" + ns() + "/base"));
    awaitElement(By.cssSelector("#inventory li.obj[data-name='Gadget/gear']"));
    eventually(
        () ->
            assertEquals(
                "Current",
                browser
                    .findElement(By.cssSelector("#inventory li.obj[data-name='Gadget/gear']"))
                    .getAttribute("data-status")));
    assertTrue(browser.findElement(By.id("conditions")).getText().contains("Healthy"));
    // judged by the Kustomization's own healthCheckExprs: the generic rules would call it Current
    setPhase("Failed");
    eventually(
        () ->
            assertEquals(
                "Failed",
                browser
                    .findElement(By.cssSelector("#inventory li.obj[data-name='Gadget/gear']"))
                    .getAttribute("data-status")));
    setPhase("Ready");
    eventually(
        () ->
            assertEquals(
                "Current",
                browser
                    .findElement(By.cssSelector("#inventory li.obj[data-name='Gadget/gear']"))
                    .getAttribute("data-status")));
    eventually(
        () ->
            assertTrue(
                browser
                    .findElement(By.id("history"))
                    .getText()
                    .contains("Applied revision: test")));
    assertTrue(browser.findElement(By.id("source")).getText().contains("main@sha1:"));
    // drift is computed when the page opens: the Gadget's status is no drift
    awaitDriftState("DONE");
    assertTrue(
        browser.findElement(By.id("drift-message")).getText().contains("no drift"),
        browser.findElement(By.id("drift")).getText());
    assertEquals(SUBJECT, browser.findElement(By.id("commit-subject")).getText());
    screenshot("kustomization");
  }

  @Test
  @Order(5)
  void suspendAndResumeWorkWithTheUsersCredentials() throws IOException {
    browser.get(url(ui, "/#/ks/" + ns() + "/app"));
    act("suspend");
    eventually(
        () ->
            assertEquals("ok", browser.findElement(By.id("action-result")).getAttribute("class")));
    eventually(() -> assertTrue(engine.kustomization("app").getSpec().suspended()));
    awaitElement(By.cssSelector("#summary tr.row[data-state='suspended']"));
    screenshot("kustomization-suspended");
    act("resume");
    eventually(() -> assertFalse(engine.kustomization("app").getSpec().suspended()));
    assertTrue(
        engine
            .kustomization("app")
            .getMetadata()
            .getAnnotations()
            .containsKey("reconcile.capstan.dev/requestedAt"));

    // reconcile with source: the GitRepository is asked first, then the Kustomization; both answer
    browser.get(url(ui, "/#/ks/" + ns() + "/base"));
    awaitElement(By.id("summary"));
    act("reconcile");
    eventually(
        () ->
            assertTrue(
                browser
                    .findElement(By.id("action-result"))
                    .getText()
                    .contains(
                        "reconcile requested for GitRepository "
                            + ns()
                            + "/repo and Kustomization "
                            + ns()
                            + "/base")));
    String asked =
        engine
            .kustomization("base")
            .getMetadata()
            .getAnnotations()
            .get("reconcile.capstan.dev/requestedAt");
    assertTrue(
        engine
            .gitRepository("repo")
            .getMetadata()
            .getAnnotations()
            .containsKey("reconcile.capstan.dev/requestedAt"),
        "the source was asked too");
    eventually(
        () ->
            assertEquals(asked, engine.kustomization("base").getStatus().lastHandledReconcileAt()));
    eventually(
        () ->
            assertTrue(engine.gitRepository("repo").getStatus().lastHandledReconcileAt() != null));
  }

  @Test
  @Order(6)
  void anActionTheUsersRbacForbidsShowsTheApiServersReason() throws IOException {
    browser.get(url(viewerUi, "/#/ks/" + ns() + "/app"));
    awaitElement(By.id("summary"));
    act("suspend");
    eventually(
        () ->
            assertEquals(
                "refused", browser.findElement(By.id("action-result")).getAttribute("class")));
    String refusal = browser.findElement(By.id("action-result")).getText();
    assertTrue(
        refusal.contains("forbidden") && refusal.contains(VIEWER) && refusal.contains("patch"),
        refusal);
    assertFalse(engine.kustomization("app").getSpec().suspended());
    screenshot("refused");
  }

  @Test
  @Order(7)
  void aNamespaceTheUserCannotListIsSaidWhereItsRowsWouldBe() throws IOException {
    browser.get(url(teamUi, "/#/"));
    awaitElement(By.cssSelector("tr.row[data-id='Kustomization/" + ns() + "/app']"));
    // a live update may render the table again between finding the note and reading it
    awaitElement(By.cssSelector("#ks-table p.problem[data-kind='Kustomizations']"));
    String text = textOnceStable(By.cssSelector("#ks-table p.problem[data-kind='Kustomizations']"));
    assertTrue(
        text.contains("cannot list Kustomizations in namespace kube-system")
            && text.contains("forbidden")
            && text.contains(TEAM),
        text);
    assertTrue(
        textOnceStable(By.cssSelector("#table-GitRepositories p.problem")).contains("kube-system"));
    awaitElement(By.cssSelector("tr.row[data-id='GitRepository/" + ns() + "/repo']"));
    screenshot("overview-forbidden-namespace");
  }

  @Test
  @Order(8)
  void driftShowsWhatChangedInTheClusterWithSecretValuesMasked() throws IOException {
    engine.kustomization("drifty", "repo", "./drift", "");
    engine.awaitCondition("drifty", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    String applied = engine.kustomization("drifty").getStatus().lastAppliedRevision();
    // what kubectl patch would do: another field manager changes an applied field
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .withName("drift-settings")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"color\":\"red\"}}");
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .withName("drift-secret")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"data\":{\"password\":\"" + base64(CLUSTER_SECRET) + "\"}}");

    browser.get(url(ui, "/#/ks/" + ns() + "/drifty"));
    awaitDriftState("DONE");
    WebElement config =
        awaitElement(
            By.cssSelector(".drift-obj[data-ref='ConfigMap/" + ns() + "/drift-settings']"));
    assertEquals("CHANGED", config.getAttribute("data-change"));
    String diff = config.getText();
    assertTrue(diff.contains("-  color: \"red\"") && diff.contains("+  color: \"blue\""), diff);
    WebElement secret =
        browser.findElement(
            By.cssSelector(".drift-obj[data-ref='Secret/" + ns() + "/drift-secret']"));
    String secretDiff = secret.getText();
    assertTrue(
        secretDiff.contains("+  password: \"*** (changed)\"")
            && secretDiff.contains("-  password: \"***\""),
        secretDiff);
    assertTrue(secretDiff.contains("*** (unchanged)"), "the user key is masked too: " + secretDiff);
    assertEquals(
        2,
        browser.findElements(By.cssSelector(".drift-obj")).size(),
        "only what differs is listed");
    assertTrue(browser.findElement(By.id("drift-revision")).getText().contains(applied));
    assertTrue(
        browser
            .findElement(By.id("drift-revision"))
            .getText()
            .contains("status.lastAppliedRevision"));
    assertEquals(SUBJECT, browser.findElement(By.id("commit-subject")).getText());
    assertTrue(
        browser.findElements(By.cssSelector("#commit-subject b")).isEmpty(),
        "the subject is text, not markup");
    assertTrue(browser.findElement(By.id("commit-author")).getText().contains("Capstan Test"));
    assertNoSecretIn(browser.getPageSource());
    ((JavascriptExecutor) browser)
        .executeScript("document.getElementById('source').scrollIntoView()");
    screenshot("kustomization-drift");

    // a live update re-renders the page but does not compute again; the button does
    String computedAt = browser.findElement(By.id("drift-revision")).getText();
    int rendered =
        Integer.parseInt(browser.findElement(By.tagName("body")).getAttribute("data-rendered"));
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .withName("drift-settings")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"color\":\"blue\"}}");
    engine
        .client
        .resources(Kustomization.class)
        .inNamespace(ns())
        .withName("drifty")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"ui-test\":\"touched\"}}}");
    eventually(
        () ->
            assertTrue(
                Integer.parseInt(
                        browser.findElement(By.tagName("body")).getAttribute("data-rendered"))
                    > rendered,
                "the page re-rendered from the event stream"));
    assertEquals(computedAt, browser.findElement(By.id("drift-revision")).getText());
    browser.findElement(By.id("drift-again")).click();
    eventually(
        () ->
            assertTrue(
                browser
                    .findElements(
                        By.cssSelector(
                            ".drift-obj[data-ref='ConfigMap/" + ns() + "/drift-settings']"))
                    .isEmpty()));
    awaitDriftState("DONE");
    assertEquals(1, browser.findElements(By.cssSelector(".drift-obj")).size());
    assertNoSecretIn(browser.getPageSource());
  }

  @Test
  @Order(9)
  void aSourceSecretTheUserCannotReadIsSaidWhereTheDriftWouldBe() throws IOException {
    engine.secret("git-extra", Map.of("note", "no credentials in here"));
    engine.gitRepository("locked-repo", git.url(), "  secretRef: {name: git-extra}");
    engine.kustomization("locked", "locked-repo", "./locked", "");
    engine.awaitCondition("locked", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    browser.get(url(viewerUi, "/#/ks/" + ns() + "/locked"));
    awaitDriftState("FAILED");
    String message = browser.findElement(By.id("drift-message")).getText();
    assertTrue(
        message.contains("cannot read the GitRepository's Secrets")
            && message.contains("forbidden")
            && message.contains(VIEWER)
            && message.contains("secrets"),
        message);
    // the rest of the page is there
    awaitElement(By.cssSelector("#inventory li.obj[data-name='ConfigMap/locked-settings']"));
    assertTrue(browser.findElement(By.id("conditions")).getText().contains("Ready"));
    screenshot("kustomization-drift-forbidden");
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  @Order(10)
  void aComparisonPastItsDeadlineSaysTimedOut() throws Exception {
    engine.gitRepository("slow-repo", git.url());
    engine.kustomization("slow", "slow-repo", "./slow", "");
    engine.awaitCondition("slow", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    // the source now answers nothing: a server that accepts connections and never replies
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (IOException e) {
                  // closed at the end of the test
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      engine
          .client
          .resources(GitRepository.class)
          .inNamespace(ns())
          .withName("slow-repo")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"url\":\"http://127.0.0.1:" + silent.getLocalPort() + "/slow.git\"}}");
      try (UiServer quick =
          UiServer.start(
              engine.client,
              UiOptions.on(loopback())
                  .withNamespaces(List.of(ns()))
                  .withDriftTimeout(Duration.ofSeconds(3)))) {
        enter(quick.url().toString());
        browser.get(url(quick, "/#/"));
        awaitElement(By.cssSelector("tr.row[data-id='Kustomization/" + ns() + "/slow']"));
        browser.get(url(quick, "/#/ks/" + ns() + "/slow"));
        awaitDriftState("TIMED_OUT");
        assertEquals("timed out", browser.findElement(By.id("drift-state")).getText());
        String message = browser.findElement(By.id("drift-message")).getText();
        assertTrue(message.startsWith("timed out after 3s"), message);
        assertFalse(held.isEmpty(), "the comparison did reach the source");
        assertTrue(
            browser.findElement(By.id("conditions")).getText().contains("Ready"),
            "the rest of the page is there");
        screenshot("kustomization-drift-timed-out");
      }
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  @Test
  @Order(11)
  void nothingIsServedWithoutThePrintedAddressNorToAnotherHost() throws Exception {
    CliView view = cliView();
    browser.get(view.plain() + "#/");
    WebElement refused = awaitElement(By.id("access-refused"));
    assertTrue(
        refused.getText().contains("the address that capstan ui printed"), refused.getText());
    assertTrue(browser.findElements(By.id("main")).isEmpty(), "no view without the token");
    screenshot("access-refused");

    long before = historyLength();
    enter(view.printed());
    assertFalse(browser.getCurrentUrl().contains("token"), browser.getCurrentUrl());
    assertEquals(
        before + 1, historyLength(), "the address with the token is not kept in the history");
    awaitElement(By.cssSelector("tr.row[data-id='Kustomization/" + ns() + "/app']"));

    // --allow-remote keeps the Host check: a DNS name rebound to this machine gets nothing, even
    // with the token; a name given with --allow-host is served
    int port = URI.create(view.printed()).getPort();
    String query = URI.create(view.printed()).getRawQuery();
    browser.get("http://" + REBOUND + ":" + port + "/?" + query);
    String answer = browser.findElement(By.tagName("body")).getText();
    assertTrue(answer.contains("the Host header names no address this view answers to"), answer);
    assertTrue(browser.findElements(By.id("main")).isEmpty());
    // as --open does it: a file that sends the browser on, so the navigation starts elsewhere
    // (this name has no cookie yet)
    Path launch = LaunchPage.write("http://" + ALLOWED + ":" + port + "/?" + query);
    try {
      browser.get(launch.toUri().toString());
      awaitWithin(
          Duration.ofSeconds(20),
          () -> assertEquals("http://" + ALLOWED + ":" + port + "/", browser.getCurrentUrl()));
      awaitElement(By.cssSelector("tr.row[data-id='Kustomization/" + ns() + "/app']"));
    } finally {
      Files.delete(launch);
    }
  }

  @Test
  @Order(12)
  void driftAcrossNamespacesIsRefusedUnderTheLockdown() throws Exception {
    other = Tenants.namespace(engine.client, "capstan-ui-xns");
    engine.kustomization("xns", other, ns(), "repo", "./app", "");
    // without the lockdown (as the engine here runs) the Kustomization is compared
    browser.get(url(ui, "/#/ks/" + other + "/xns"));
    awaitDriftState("DONE");

    enter(cliView().printed());
    browser.get(cliView().plain() + "#/ks/" + other + "/xns");
    awaitDriftState("REFUSED");
    assertEquals("refused", browser.findElement(By.id("drift-state")).getText());
    assertEquals(
        "refused, as the engine would refuse it: cross-namespace references are not allowed:"
            + " sourceRef GitRepository '"
            + ns()
            + "/repo' is not in namespace '"
            + other
            + "'",
        browser.findElement(By.id("drift-message")).getText());
    assertTrue(browser.findElement(By.id("conditions")).isDisplayed(), "the rest of the page");
    screenshot("kustomization-drift-refused");
  }

  /**
   * {@code capstan ui} with the options a user would give to serve beyond loopback, locked down,
   * started once.
   */
  private static CliView cliView() {
    if (cliView == null) {
      cliView =
          CliView.start(
              "ui",
              "--addr",
              "0.0.0.0:0",
              "--allow-remote",
              "--allow-host",
              ALLOWED,
              "--no-cross-namespace-refs",
              "--kubeconfig",
              kubeconfig.toString());
    }
    return cliView;
  }

  /** A {@code capstan ui} command run in this process until it is interrupted. */
  private record CliView(Thread thread, StringWriter out, StringWriter err, String printed)
      implements AutoCloseable {
    static CliView start(String... args) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine cli = CapstanMain.commandLine();
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
      Thread thread = new Thread(() -> cli.execute(args), "capstan-ui-command");
      thread.setDaemon(true);
      thread.start();
      EngineFixture.eventually(Duration.ofSeconds(60))
          .until(() -> out.toString().contains(" (Ctrl-C to stop)"));
      Matcher printed =
          Pattern.compile("serving the view on (http://\\S+) \\(Ctrl-C to stop\\)")
              .matcher(out.toString());
      assertTrue(printed.find(), out::toString);
      String url = printed.group(1);
      String token = url.substring(url.indexOf("token=") + 6);
      assertTrue(token.length() >= 22, "at least 128 bits: " + token.length() + " characters");
      assertFalse(err.toString().contains(token), "the token only in the one start line");
      assertTrue(err.toString().contains("warning: serving on 0.0.0.0:0"), err::toString);
      return new CliView(thread, out, err, url);
    }

    /** The printed address without its token. */
    String plain() {
      return printed.substring(0, printed.indexOf('?'));
    }

    @Override
    public void close() throws InterruptedException {
      thread.interrupt();
      thread.join(Duration.ofSeconds(20).toMillis());
    }
  }

  private static long historyLength() {
    return ((Number) ((JavascriptExecutor) browser).executeScript("return history.length"))
        .longValue();
  }

  @Test
  @Order(13)
  void driftReportedInWarnModeIsSaidAtTheTopOfTheKustomizationsPage() throws IOException {
    engine.kustomization("warned", "repo", "./warned", "  driftDetection: {mode: warn}");
    engine.awaitCondition("warned", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    browser.get(url(ui, "/#/ks/" + ns() + "/warned"));
    awaitElement(By.id("summary"));
    assertTrue(browser.findElements(By.id("drifted")).isEmpty(), "no drift reported yet");

    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .withName("warned-settings")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"value\":\"by-hand\"}}");
    engine.reconcileAndWait("warned", Duration.ofSeconds(60));
    engine.awaitCondition("warned", "Drifted", Duration.ofSeconds(10), EngineTestBase::isTrue);
    browser.navigate().refresh();
    String banner = awaitElement(By.id("drifted")).getText();
    assertTrue(
        banner.contains("ConfigMap/" + ns() + "/warned-settings: /data/value"),
        "the banner names the object and the field: " + banner);
    screenshot("kustomization-drifted");
  }

  @Test
  @Order(14)
  void helmReleaseRowAndPageShowWhatItsStatusSaysWithItsHistoryNewestFirst() throws IOException {
    unreleasedHelmRelease("web");
    browser.get(url(ui, "/#/"));
    String row = "#hr-table tr.row[data-id='HelmRelease/" + ns() + "/web']";
    eventually(
        () -> {
          String text = browser.findElement(By.cssSelector(row)).getText();
          assertTrue(text.contains("podinfo@6.5.1"), "the current release's chart: " + text);
          assertTrue(text.contains(HOSTILE), "the Ready message as text: " + text);
          // read inside the retry: the table is redrawn on every change in the cluster
          assertEquals("3", browser.findElement(By.cssSelector(row + " td.release")).getText());
          assertEquals("failing", state(row));
          assertTrue(
              browser.findElements(By.cssSelector("#hr-table img")).isEmpty(), "no markup made");
        });
    screenshot("overview-helmreleases");

    eventually(() -> browser.findElement(By.cssSelector(row + " a")).click());
    awaitElement(By.id("releases"));
    eventually(
        () ->
            assertEquals(
                List.of("3", "2", "1"),
                browser.findElements(By.cssSelector("#releases tr.release")).stream()
                    .map(e -> e.getAttribute("data-version"))
                    .toList(),
                "newest first, whatever the order of status.history"));
    eventually(
        () -> {
          String failed =
              browser.findElement(By.cssSelector("#releases tr[data-version='3']")).getText();
          assertTrue(failed.contains("failed") && failed.contains("6.5.1"), failed);
          String conditions = browser.findElement(By.id("conditions")).getText();
          assertTrue(conditions.contains("Released") && conditions.contains(HOSTILE), conditions);
          assertTrue(browser.findElements(By.cssSelector("#main img")).isEmpty(), "no markup made");
        });
    screenshot("helmrelease");
  }

  @Test
  @Order(15)
  void suspendAndResumeOnAHelmReleasesPageChangeItInTheCluster() throws IOException {
    unreleasedHelmRelease("suspendable");
    browser.get(url(ui, "/#/hr/" + ns() + "/suspendable"));
    awaitElement(By.id("releases"));
    act("suspend");
    eventually(
        () ->
            assertEquals(
                "HelmRelease " + ns() + "/suspendable suspended",
                browser.findElement(By.id("action-result")).getText()));
    eventually(() -> assertEquals(Boolean.TRUE, helmReleaseSpec("suspendable").get("suspend")));
    awaitElement(By.cssSelector("#summary tr.row[data-state='suspended']"));
    screenshot("helmrelease-suspended");

    act("resume");
    eventually(() -> assertEquals(Boolean.FALSE, helmReleaseSpec("suspendable").get("suspend")));
    assertTrue(
        helmRelease("suspendable")
            .getMetadata()
            .getAnnotations()
            .containsKey("reconcile.capstan.dev/requestedAt"),
        "resume asks for a reconcile");
    awaitElement(By.cssSelector("#summary tr.row[data-state='failing']"));
  }

  @Test
  @Order(16)
  void replicasPageShowsEachReplicaAsItsLeasesAndTheShardMapSay() throws IOException {
    // A view of the namespaces in view only: no replica Lease there yet, and kube-system's Leases
    // are not the team's to list.
    browser.get(url(teamUi, "/#/replicas"));
    eventually(
        () ->
            assertTrue(
                browser.findElement(By.id("replicas-note")).getText().contains("Cannot tell"),
                "without replica Leases, and Leases it cannot list, the page cannot tell"));
    eventually(
        () ->
            assertTrue(
                browser
                    .findElement(By.cssSelector("#replicas p.problem"))
                    .getText()
                    .contains("cannot list Leases in namespace kube-system")));

    // Two replicas of a group as a sharded engine writes them: one renewed now, one that stopped
    // renewing an hour ago; the shard map's claims; one Kustomization labelled the first's.
    Instant now = Instant.now();
    replicaLease("ui-a", now, 3600);
    replicaLease("ui-b", now.minus(Duration.ofHours(1)), 10);
    engine
        .client
        .leases()
        .inNamespace(ns())
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName(ShardOptions.SHARD_MAP_PREFIX + "ui-e2e")
                .withNamespace(ns())
                .addToAnnotations(ShardOptions.CLAIMS_ANNOTATION, "ui-a=0-600;ui-b=600-1024")
                .addToAnnotations(ShardOptions.SLOTS_ANNOTATION, "10")
                .addToAnnotations(ShardOptions.KEY_ANNOTATION, "uid")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build())
        .create();
    engine
        .client
        .resources(Kustomization.class)
        .inNamespace(ns())
        .withName("app")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"%s\":\"ui-a\"},\"annotations\":{\"%s\":\"%s/ui-e2e\"}}}"
                .formatted(ShardOptions.REPLICA_LABEL, ShardOptions.GROUP_LABEL, ns()));

    browser.get(url(ui, "/#/"));
    eventually(
        () ->
            assertEquals(
                "ui-a",
                browser
                    .findElement(
                        By.cssSelector(
                            "tr.row[data-id='Kustomization/" + ns() + "/app'] td.replica"))
                    .getText()));
    awaitElement(By.id("nav-replicas")).click();
    String group = "section.replica-group[data-group='" + ns() + "/ui-e2e'] ";
    String first = group + "tr.replica-row[data-replica='ui-a'] ";
    String second = group + "tr.replica-row[data-replica='ui-b'] ";
    eventually(() -> assertEquals("live", text(first + ".state")));
    assertEquals("600", text(first + ".slots"));
    assertEquals("0-600", text(first + ".ranges"));
    assertEquals("0x0000000000000000–0x9600000000000000", text(first + ".hashes"));
    assertEquals("1", text(first + ".owned"));
    assertEquals("expired", text(second + ".state"));
    assertEquals("424", text(second + ".slots"));
    assertEquals("0", text(second + ".owned"));
    assertTrue(
        browser.findElement(By.cssSelector(group + "p.note")).getText().contains("0 unclaimed"));
    screenshot("replicas");

    // The second replica renews: the page says so without a reload.
    replicaLease("ui-b", Instant.now(), 3600);
    eventually(() -> assertEquals("live", text(second + ".state")));

    // A third renews once for 8 s and stops: no change reaches the page, which asks again when the
    // Lease would expire.
    String third = group + "tr.replica-row[data-replica='ui-c'] ";
    replicaLease("ui-c", Instant.now(), 8);
    eventually(() -> assertEquals("live", text(third + ".state")));
    eventually(() -> assertEquals("expired", text(third + ".state")));
  }

  private static String text(String css) {
    return browser.findElement(By.cssSelector(css)).getText();
  }

  /** A replica's Lease as a sharded engine writes it: group label, holder, process, renewal. */
  private static void replicaLease(String replica, Instant renewed, int seconds) {
    engine
        .client
        .leases()
        .inNamespace(ns())
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName(ShardOptions.REPLICA_LEASE_PREFIX + replica)
                .withNamespace(ns())
                .addToLabels(ShardOptions.GROUP_LABEL, "ui-e2e")
                .addToAnnotations(ShardOptions.PROCESS_ANNOTATION, "process-of-" + replica)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(replica)
                .withLeaseDurationSeconds(seconds)
                .withRenewTime(ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC))
                .endSpec()
                .build())
        .serverSideApply();
  }

  private static GenericKubernetesResource helmRelease(String name) {
    return engine
        .client
        .genericKubernetesResources("helm.capstan.dev/v2", "HelmRelease")
        .inNamespace(ns())
        .withName(name)
        .get();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> helmReleaseSpec(String name) {
    return (Map<String, Object>) helmRelease(name).getAdditionalProperties().get("spec");
  }

  /** A Ready message a tenant could make a chart's failure say: it must reach the page as text. */
  private static final String HOSTILE = "<img src=x onerror=alert(1)> upgrade failed";

  /**
   * A HelmRelease no engine reconciles (no shard label), its status written through the status
   * subresource as helm-controller would have: the view reads only what the status says.
   */
  private static void unreleasedHelmRelease(String name) {
    String apiVersion = "helm.capstan.dev/v2";
    engine
        .client
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(apiVersion)
                .withKind("HelmRelease")
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns())
                .endMetadata()
                .addToAdditionalProperties(
                    "spec",
                    Map.of(
                        "interval",
                        "10m",
                        "chartRef",
                        Map.of("kind", "OCIRepository", "name", "bundle")))
                .build())
        .create();
    String snapshot =
        """
        {"name":"%1$s","namespace":"%2$s","version":%3$d,"status":"%4$s","chartName":"podinfo",
         "chartVersion":"%5$s","appVersion":"%5$s","digest":"sha256:%6$s",
         "configDigest":"sha256:%6$s","firstDeployed":"2026-01-01T00:00:00Z",
         "lastDeployed":"2026-01-0%3$dT00:00:00Z"}
        """;
    String history =
        String.join(
            ",",
            snapshot.formatted(name, ns(), 3, "failed", "6.5.1", "c".repeat(64)),
            snapshot.formatted(name, ns(), 1, "superseded", "6.4.0", "a".repeat(64)),
            snapshot.formatted(name, ns(), 2, "superseded", "6.5.0", "b".repeat(64)));
    String status =
        """
        {"status":{"history":[%s],"conditions":[
          {"type":"Ready","status":"False","reason":"UpgradeFailed","message":"%s",
           "lastTransitionTime":"2026-01-03T00:00:00Z"},
          {"type":"Released","status":"False","reason":"UpgradeFailed","message":"failed",
           "lastTransitionTime":"2026-01-03T00:00:00Z"}]}}
        """
            .formatted(history, HOSTILE);
    engine
        .client
        .genericKubernetesResources(apiVersion, "HelmRelease")
        .inNamespace(ns())
        .withName(name)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), status);
  }

  private static void assertNoSecretIn(String page) {
    Base64.Encoder b64 = Base64.getEncoder();
    for (String value : List.of(GIT_SECRET, CLUSTER_SECRET, "admin-user")) {
      assertFalse(page.contains(value), "the page shows a Secret value");
      assertFalse(
          page.contains(b64.encodeToString(value.getBytes(StandardCharsets.UTF_8))),
          "the page shows a Secret value in base64");
    }
  }

  private static void awaitDriftState(String state) {
    EngineFixture.eventually(Duration.ofSeconds(90))
        .untilAsserted(
            () ->
                assertEquals(
                    state,
                    browser.findElement(By.id("drift-state")).getAttribute("data-state"),
                    () -> browser.findElement(By.id("drift")).getText()));
  }

  private static void grantNamespaceRead() {
    engine
        .client
        .rbac()
        .roles()
        .inNamespace(ns())
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(TEAM)
                .withNamespace(ns())
                .endMetadata()
                .addNewRule()
                .withApiGroups(Kustomization.GROUP, "source.capstan.dev")
                .withResources(
                    "kustomizations",
                    "gitrepositories",
                    "ocirepositories",
                    "buckets",
                    "helmrepositories",
                    "helmcharts")
                .withVerbs("get", "list", "watch")
                .endRule()
                .addNewRule()
                .withApiGroups("coordination.k8s.io")
                .withResources("leases")
                .withVerbs("get", "list", "watch")
                .endRule()
                .build())
        .serverSideApply();
    engine
        .client
        .rbac()
        .roleBindings()
        .inNamespace(ns())
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(TEAM)
                .withNamespace(ns())
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", TEAM)
                .addNewSubject()
                .withKind("User")
                .withApiGroup("rbac.authorization.k8s.io")
                .withName(TEAM)
                .endSubject()
                .build())
        .serverSideApply();
  }

  private static void act(String action) {
    awaitElement(By.id("action-" + action)).click();
    awaitElement(By.id("confirm-ok")).click();
  }

  private static String state(String css) {
    return browser.findElement(By.cssSelector(css)).getAttribute("data-state");
  }

  private static WebElement awaitElement(By by) {
    EngineFixture.eventually(Duration.ofSeconds(20))
        .until(() -> !browser.findElements(by).isEmpty());
    return browser.findElement(by);
  }

  /**
   * Picks an option of a filter. A live update may render the filter again between finding it and
   * choosing, so it is found again until the choice holds.
   */
  private static void choose(String selectId, String value) {
    awaitWithin(
        Duration.ofSeconds(20),
        () -> {
          new Select(browser.findElement(By.id(selectId))).selectByValue(value);
          assertEquals(
              value,
              new Select(browser.findElement(By.id(selectId)))
                  .getFirstSelectedOption()
                  .getAttribute("value"));
        });
  }

  /** The element's text, found again if a live update replaced it while it was read. */
  private static String textOnceStable(By by) {
    String[] text = new String[1];
    awaitWithin(Duration.ofSeconds(20), () -> text[0] = browser.findElement(by).getText());
    return text[0];
  }

  private static void eventually(ThrowingRunnable check) {
    EngineFixture.eventually(Duration.ofSeconds(20)).untilAsserted(check);
  }

  private static void awaitWithin(Duration atMost, ThrowingRunnable check) {
    Awaitility.await()
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptions()
        .untilAsserted(check);
  }

  private static String url(UiServer server, String path) {
    return "http://127.0.0.1:" + server.address().getPort() + path;
  }

  private static void screenshot(String name) throws IOException {
    File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  static WebDriver chromium() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(System.getProperty("capstan.chromium", "/usr/bin/chromium"));
    options.addArguments(
        // what a DNS name rebound to this machine, or one the user allowed, looks like
        "--host-resolver-rules=MAP " + REBOUND + " 127.0.0.1, MAP " + ALLOWED + " 127.0.0.1",
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(
                new File(System.getProperty("capstan.chromedriver", "/usr/bin/chromedriver")))
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }

  private static void grantReadOnly() {
    String name = VIEWER + "-" + ns();
    engine
        .client
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addNewRule()
                .withApiGroups(Kustomization.GROUP, "source.capstan.dev")
                .withResources(
                    "kustomizations",
                    "gitrepositories",
                    "ocirepositories",
                    "buckets",
                    "helmrepositories",
                    "helmcharts")
                .withVerbs("get", "list", "watch")
                .endRule()
                .addNewRule()
                .withApiGroups("helm.capstan.dev")
                .withResources("helmreleases")
                .withVerbs("get", "list", "watch")
                .endRule()
                .addNewRule()
                .withApiGroups("")
                .withResources("events")
                .withVerbs("get", "list", "watch")
                .endRule()
                .build())
        .serverSideApply();
    engine
        .client
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", name)
                .addNewSubject()
                .withKind("User")
                .withApiGroup("rbac.authorization.k8s.io")
                .withName(VIEWER)
                .endSubject()
                .build())
        .serverSideApply();
  }

  private static KubernetesClient impersonating(String user) {
    Config config =
        new ConfigBuilder(engine.client.getConfiguration()).withImpersonateUsername(user).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private static void installCrd() {
    CapstanCrds.installYaml(engine.client, CRD);
  }

  private static final String BUNDLE_REVISION = "v1@sha256:" + "ab".repeat(32);

  private static final String CHARTS_REVISION = "sha256:" + "ef".repeat(32);

  /**
   * A source that no engine reconciles (no shard label), its status written as the controller would
   * have written it.
   */
  private static void unreconciledSource(String kind, String name, String url, String revision) {
    GenericKubernetesResource repo =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("source.capstan.dev/v1")
            .withKind(kind)
            .withNewMetadata()
            .withName(name)
            .withNamespace(ns())
            .endMetadata()
            .addToAdditionalProperties("spec", Map.of("url", url, "interval", "10m"))
            .build();
    engine.client.resource(repo).create();
    engine
        .client
        .genericKubernetesResources("source.capstan.dev/v1", kind)
        .inNamespace(ns())
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            """
            {"status":{"artifact":{"revision":"%s","digest":"sha256:%s",
              "path":"ocirepository/x","lastUpdateTime":"2026-01-01T00:00:00Z"},
              "conditions":[{"type":"Ready","status":"True","reason":"Succeeded",
              "message":"stored artifact","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}
            """
                .formatted(revision, "cd".repeat(32)));
  }

  private static void setPhase(String phase) {
    engine
        .client
        .genericKubernetesResources("ui.e2e.capstan.dev/v1", "Gadget")
        .inNamespace(ns())
        .withName("gear")
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"" + phase + "\"}}");
  }
}
