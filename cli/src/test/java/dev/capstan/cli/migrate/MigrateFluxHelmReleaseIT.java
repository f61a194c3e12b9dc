package dev.capstan.cli.migrate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capstan.cli.CliRun;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.Finalizers;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstan migrate flux} of a HelmRelease that Flux's real helm-controller installed (from a
 * chart a HelmRepository serves over HTTP, its values partly from a Secret), with Flux's
 * source-controller and helm-controller (deploy/flux/build) as local processes and the engine in
 * the test's JVM: the twin takes over the existing Helm release (same name and storage namespace,
 * its history continued, not uninstalled), every object keeps its uid, nothing is deleted, no field
 * is left to helm-controller, the Flux HelmRelease and the HelmChart helm-controller made for it
 * are gone; a second run does nothing; a new chart version and a values change are then released by
 * Capstan; a rollback hands the release back to the running helm-controller.
 */
@ExtendWith(KubernetesCluster.class)
class MigrateFluxHelmReleaseIT {
  private static final String SELECTOR = "capstan.test/migrate-helm";
  private static final String RELEASE = "shop";

  private static KubernetesClient client;
  private static ClusterAccess access;
  private static String ns;
  private static IndexServer charts;
  private static HelmCommand helm;
  private static Engine engine;
  private static FluxControllers flux;
  private static final Map<String, byte[]> versions = new LinkedHashMap<>();
  private static final List<String> deletions = new CopyOnWriteArrayList<>();
  private static final List<Watch> watches = new ArrayList<>();

  @BeforeAll
  static void setUp(
      KubernetesClient kube, TestNamespace namespace, ClusterAccess cluster, @TempDir Path dir)
      throws Exception {
    assumeTrue(
        FluxControllers.goInstalled(),
        "Go is not installed: Flux's controllers cannot be built, so the migration is not tested");
    client = kube;
    access = cluster;
    ns = namespace.name();
    Path fluxBin = FluxControllers.build(cluster.kubeconfig());
    helm = HelmCommand.of(cluster.kubeconfig(), dir.resolve("helm"));
    CapstanCrds.install(client);
    charts = IndexServer.http();
    publish("1.0.0");
    flux = FluxControllers.startForHelm(fluxBin, cluster.kubeconfig(), ns, dir.resolve("flux"));
    engine =
        new Engine(
            EngineOptions.defaults(Files.createDirectories(dir.resolve("artifacts")))
                .withWatchLabelSelector(Optional.of(SELECTOR + "=" + ns))
                .withWaitPoll(Duration.ofSeconds(1)),
            client,
            List.of());
    engine.start();
  }

  @AfterAll
  static void tearDown() throws Exception {
    watches.forEach(Watch::close);
    if (engine != null) {
      engine.close();
    }
    if (flux != null) {
      flux.close();
    }
    if (client != null) {
      for (FluxKind kind :
          List.of(FluxKind.HELM_RELEASE, FluxKind.HELM_CHART, FluxKind.HELM_REPOSITORY)) {
        for (boolean capstan : List.of(true, false)) {
          release(kind, capstan);
        }
      }
    }
    if (charts != null) {
      charts.close();
    }
  }

  @Test
  void theReleaseHelmControllerInstalledIsTakenOverInPlaceAndReleasedByCapstanFromThenOn()
      throws Exception {
    createFluxObjects();
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> read(false).map(Manifest::readyNow).orElse(false));
    assertEquals(List.of("1 deployed"), helm.history(RELEASE, ns));
    Map<String, String> uids = uids();
    assertEquals(
        List.of("ConfigMap/shop-settings", "Service/shop"), List.copyOf(uids.keySet()), "applied");
    Map<String, List<String>> fluxManagers = managers();
    System.err.println("field managers after helm-controller's install: " + fluxManagers);
    fluxManagers.forEach(
        (name, owners) ->
            assertTrue(owners.stream().anyMatch(m -> m.startsWith("helm")), name + " " + owners));
    String fluxChart = String.valueOf(read(false).orElseThrow().status().get("helmChart"));
    assertEquals(ns + "/" + ns + "-" + RELEASE, fluxChart);
    watchDeletions();

    CliRun dryRun = migrate();
    assertEquals(0, dryRun.exitCode(), dryRun::toString);
    assertTrue(
        dryRun.out().contains("HelmRelease " + ns + "/shop: migrated to its Capstan twin"),
        dryRun::toString);
    assertTrue(
        dryRun.out().contains("HelmChart " + fluxChart + ": not migrated: made by helm-controller"),
        dryRun::toString);
    assertTrue(read(true).isEmpty(), "the dry run made no twin");

    long started = System.nanoTime();
    CliRun applied = migrate("--apply");
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertEquals(0, applied.exitCode(), applied::toString);
    System.err.println("migration of a HelmRelease and its HelmRepository took " + took);
    assertMigrated(uids);
    List<String> history = helm.history(RELEASE, ns);
    assertEquals(
        List.of("1 superseded", "2 deployed"),
        history,
        "adopted as the release's next version, with the same chart and values");
    Map<?, ?> latest = (Map<?, ?>) ((List<?>) status().get("history")).get(0);
    assertEquals("1.0.0", latest.get("chartVersion"));
    assertEquals(2, ((Number) latest.get("version")).intValue());
    assertEquals("blue", settings().get("color"));
    assertEquals("hello", settings().get("greeting"), "valuesFrom's Secret read in place");

    CliRun again = migrate("--apply");
    assertEquals(0, again.exitCode(), again::toString);
    assertTrue(again.out().contains("nothing to do"), again::toString);
    assertEquals(List.of("1 superseded", "2 deployed"), helm.history(RELEASE, ns));

    // from now on Capstan releases: a new chart version, then a values change
    publish("1.1.0");
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> "1.1.0".equals(settings().get("chart")) && twinReady());
    assertEquals(List.of("1 superseded", "2 superseded", "3 deployed"), helm.history(RELEASE, ns));
    patchTwinValues("green");
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> "green".equals(settings().get("color")) && twinReady());
    assertEquals(4, helm.history(RELEASE, ns).size());
    assertEquals(uids, uids(), "no object was re-created");
    assertEquals(List.of(), deletions, "nothing was deleted");

    CliRun rollback = migrate("--rollback", "--apply");
    assertEquals(0, rollback.exitCode(), rollback::toString);
    System.err.println("rollback: " + rollback.out());
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> read(false).map(Manifest::readyNow).orElse(false));
    assertTrue(read(true).isEmpty(), "the twin is gone");
    assertTrue(
        new KindResources(client).read(FluxKind.HELM_CHART, true, ns, ns + "-shop").isEmpty(),
        "Capstan's HelmChart is gone");
    assertEquals(uids, uids(), "no object was re-created by the rollback");
    assertEquals(List.of(), deletions, "nothing was deleted by the rollback");
    assertEquals("green", settings().get("color"), "the Flux object has the twin's values");
    List<String> handedBack = helm.history(RELEASE, ns);
    System.err.println("helm history after the rollback: " + handedBack);
    assertEquals(
        List.of("1 superseded", "2 superseded", "3 superseded", "4"),
        handedBack.subList(0, 4).stream().map(r -> r.startsWith("4 ") ? "4" : r).toList(),
        "the history goes on");
  }

  /** The twin Ready, Flux's HelmRelease and its HelmChart gone, objects and fields taken over. */
  private static void assertMigrated(Map<String, String> uids) {
    assertTrue(twinReady(), () -> read(true).map(Manifest::readyMessage).orElse("no twin"));
    assertTrue(read(false).isEmpty(), "the Flux HelmRelease is gone");
    KindResources resources = new KindResources(client);
    assertTrue(
        resources.read(FluxKind.HELM_CHART, false, ns, ns + "-shop").isEmpty(),
        "helm-controller's HelmChart is gone");
    assertTrue(resources.read(FluxKind.HELM_REPOSITORY, false, ns, "charts").isEmpty());
    assertTrue(
        resources.read(FluxKind.HELM_CHART, true, ns, ns + "-shop").isPresent(),
        "the twin's HelmChart is Capstan's own");
    assertEquals(uids, uids(), "no object was re-created");
    assertEquals(List.of(), deletions, "nothing was deleted");
    managers()
        .forEach(
            (name, owners) -> {
              assertTrue(owners.contains("capstan"), name + " " + owners);
              assertFalse(owners.stream().anyMatch(m -> m.startsWith("helm")), name + " " + owners);
            });
  }

  private static boolean twinReady() {
    return read(true).map(Manifest::readyNow).orElse(false);
  }

  private static void createFluxObjects() {
    client
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withMetadata(new ObjectMetaBuilder().withName("shop-values").build())
                .withStringData(Map.of("values.yaml", "greeting: hello\n"))
                .build())
        .create();
    client
        .resource(
            object(
                "source.toolkit.fluxcd.io/v1",
                "HelmRepository",
                "charts",
                Map.of("url", charts.url(), "interval", "5s")))
        .create();
    Map<String, Object> chart =
        Map.of(
            "metadata",
            Map.of("labels", Map.of(SELECTOR, ns)),
            "spec",
            Map.of(
                "chart",
                "shop",
                "version",
                ">=1.0.0",
                "interval",
                "5s",
                "sourceRef",
                Map.of("kind", "HelmRepository", "name", "charts")));
    client
        .resource(
            object(
                "helm.toolkit.fluxcd.io/v2",
                "HelmRelease",
                RELEASE,
                Map.of(
                    "interval",
                    "1m",
                    "chart",
                    chart,
                    "valuesFrom",
                    List.of(
                        Map.of(
                            "kind", "Secret", "name", "shop-values", "valuesKey", "values.yaml")),
                    "values",
                    Map.of("color", "blue"))))
        .create();
  }

  private static GenericKubernetesResource object(
      String apiVersion, String kind, String name, Map<String, Object> spec) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(apiVersion);
    object.setKind(kind);
    object.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .withLabels(Map.of(SELECTOR, ns))
            .build());
    object.setAdditionalProperty("spec", spec);
    return object;
  }

  /** The chart {@code shop} at {@code version}, added to the repository's index. */
  private static void publish(String version) {
    byte[] tgz =
        TestCharts.chart("shop", version)
            .without("shop/templates/configmap.yaml")
            .file("shop/values.yaml", "color: red\ngreeting: none\n")
            .file(
                "shop/templates/configmap.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: {{ .Release.Name }}-settings}
                data:
                  color: {{ .Values.color | quote }}
                  greeting: {{ .Values.greeting | quote }}
                  chart: {{ .Chart.Version | quote }}
                """)
            .file(
                "shop/templates/service.yaml",
                """
                apiVersion: v1
                kind: Service
                metadata: {name: {{ .Release.Name }}}
                spec:
                  ports: [{port: 80}]
                """)
            .tgz();
    versions.put(version, tgz);
    charts.serveFile("shop-" + version + ".tgz", tgz);
    charts.serve(TestCharts.index("shop", versions).getBytes(StandardCharsets.UTF_8));
  }

  private static void patchTwinValues(String color) {
    new KindResources(client)
        .capstan(FluxKind.HELM_RELEASE, ns, RELEASE)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"values\":{\"color\":\"" + color + "\"}}}");
  }

  private static CliRun migrate(String... args) {
    List<String> all = new ArrayList<>(List.of("migrate", "flux", "-n", ns, "--timeout", "2m"));
    all.addAll(List.of(args));
    return CliRun.capstan(access.kubeconfig(), all.toArray(String[]::new));
  }

  private static Optional<Manifest> read(boolean capstan) {
    return new KindResources(client).read(FluxKind.HELM_RELEASE, capstan, ns, RELEASE);
  }

  private static Map<?, ?> status() {
    return read(true).orElseThrow().status();
  }

  private static Map<String, String> settings() {
    var map = client.configMaps().inNamespace(ns).withName("shop-settings").get();
    return map == null || map.getData() == null ? Map.of() : map.getData();
  }

  private static void watchDeletions() {
    Watcher<HasMetadata> watcher =
        new Watcher<>() {
          @Override
          public void eventReceived(Action action, HasMetadata object) {
            if (action == Action.DELETED) {
              deletions.add(object.getKind() + "/" + object.getMetadata().getName());
            }
          }

          @Override
          public void onClose(WatcherException cause) {}
        };
    watches.add(client.configMaps().inNamespace(ns).watch(cast(watcher)));
    watches.add(client.services().inNamespace(ns).watch(cast(watcher)));
    // Helm's release records: an uninstall would delete them
    watches.add(client.secrets().inNamespace(ns).watch(cast(watcher)));
  }

  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> Watcher<T> cast(Watcher<HasMetadata> watcher) {
    return (Watcher<T>) (Watcher<?>) watcher;
  }

  /** The release's objects (the namespace's own ConfigMap left out). */
  private static List<HasMetadata> applied() {
    return Stream.concat(
            client.configMaps().inNamespace(ns).list().getItems().stream()
                .filter(c -> !c.getMetadata().getName().equals("kube-root-ca.crt"))
                .map(HasMetadata.class::cast),
            client.services().inNamespace(ns).list().getItems().stream()
                .map(HasMetadata.class::cast))
        .toList();
  }

  private static Map<String, String> uids() {
    Map<String, String> uids = new TreeMap<>();
    applied()
        .forEach(
            o -> uids.put(o.getKind() + "/" + o.getMetadata().getName(), o.getMetadata().getUid()));
    return uids;
  }

  /** The managers of each object's main resource (status writers left out). */
  private static Map<String, List<String>> managers() {
    Map<String, List<String>> managers = new TreeMap<>();
    for (HasMetadata object : applied()) {
      List<String> names = new ArrayList<>();
      for (ManagedFieldsEntry entry : object.getMetadata().getManagedFields()) {
        if (entry.getSubresource() == null || entry.getSubresource().isEmpty()) {
          names.add(entry.getManager());
        }
      }
      managers.put(object.getKind() + "/" + object.getMetadata().getName(), names);
    }
    return managers;
  }

  /** Removes what is left of one kind without letting any controller act on its deletion. */
  private static void release(FluxKind kind, boolean capstan) {
    KindResources resources = new KindResources(client);
    for (Manifest object :
        capstan ? resources.capstan(Optional.of(ns)) : resources.flux(Optional.of(ns))) {
      if (object.kind() == kind) {
        var resource =
            capstan
                ? resources.capstan(kind, ns, object.name())
                : resources.flux(kind, ns, object.name());
        Finalizers.clear(resource);
        resource.delete();
      }
    }
  }
}
