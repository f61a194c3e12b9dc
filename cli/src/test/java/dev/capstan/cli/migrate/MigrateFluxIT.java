package dev.capstan.cli.migrate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.cli.CliRun;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.Finalizers;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.OciRegistry;
import dev.capstan.testing.S3Server;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstan migrate flux} from Flux's real source-controller and kustomize-controller (built
 * by deploy/flux/build, run as local processes watching only this test's namespace) to an engine in
 * the test's JVM (reconciling only the objects labelled for this test), with a repository laid out
 * as flux2-kustomize-helm-example's Kustomization part, and an OCIRepository of a real registry and
 * a Bucket of a real S3 server, each with a Kustomization of its artifact: Flux reconciles it
 * Ready; the dry run changes nothing; the migration keeps every applied object's uid, deletes
 * nothing, leaves no field to kustomize-controller and makes every twin Ready with Flux's
 * inventory; a second run does nothing; a rollback hands everything back to the running Flux; a run
 * killed (SIGKILL) half-way is handed back by a rollback, and another is finished by the next run;
 * then, with Flux stopped, a commit that changes one object and removes another is applied and
 * pruned by Capstan.
 */
@ExtendWith(KubernetesCluster.class)
class MigrateFluxIT {
  private static final String SELECTOR = "capstan.test/migrate";
  private static final List<String> KUSTOMIZATIONS =
      List.of("infra-controllers", "infra-configs", "apps");

  /** The chain above, one of an OCIRepository's artifact and one of a Bucket's objects. */
  private static final List<String> ALL_KUSTOMIZATIONS =
      List.of("infra-controllers", "infra-configs", "apps", "tools", "settings");

  /** Each source kind's one object. */
  private static final Map<FluxKind, String> SOURCES =
      Map.of(
          FluxKind.GIT_REPOSITORY, "fleet",
          FluxKind.OCI_REPOSITORY, "tools",
          FluxKind.BUCKET, "settings");

  private static KubernetesClient client;
  private static ClusterAccess access;
  private static String ns;
  private static Path work;
  private static Path fluxBin;
  private static HttpGitServer server;
  private static OciRegistry registry;
  private static S3Server s3;
  private static FleetRepository fleet;
  private static Engine engine;
  private static FluxControllers flux;
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
    work = dir;
    fluxBin = FluxControllers.build(cluster.kubeconfig());
    CapstanCrds.install(client);
    server = HttpGitServer.anonymous(dir.resolve("repos"));
    fleet = FleetRepository.create(dir.resolve("repos/fleet"), dir.resolve("fleet"));
    fleet.commit("Infrastructure and apps");
    registry = OciRegistry.start(dir.resolve("registry"), OciRegistry.Options.plain());
    FluxFleetObjects.pushTools(registry.url("fleet/tools"), dir.resolve("tools"));
    s3 = S3Server.start(dir.resolve("s3"), false);
    s3.createBucket("settings");
    s3.putObject(
        "settings", "settings.yaml", FleetRepository.configMap("bucket-settings", "mode: strict"));
    flux = FluxControllers.start(fluxBin, cluster.kubeconfig(), ns, dir.resolve("flux"));
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
          List.of(
              FluxKind.KUSTOMIZATION,
              FluxKind.GIT_REPOSITORY,
              FluxKind.OCI_REPOSITORY,
              FluxKind.BUCKET)) {
        for (boolean capstan : List.of(true, false)) {
          release(kind, capstan);
        }
      }
    }
    if (server != null) {
      server.close();
    }
    if (registry != null) {
      registry.close();
    }
    if (s3 != null) {
      s3.close();
    }
    if (fleet != null) {
      fleet.close();
    }
  }

  @Test
  void migratesWithoutDeletingOrRecreatingRollsBackAndPrunesOnceFluxIsGone() throws Exception {
    createFluxObjects();
    awaitFluxReady();
    Map<String, String> uids = uids();
    assertEquals(10, uids.size(), uids::toString);
    assertTrue(managers().values().stream().anyMatch(m -> m.contains("kustomize-controller")));
    List<?> fluxInventory = kustomization(false, "apps").inventory();
    watchDeletions();

    CliRun dryRun = migrate();
    assertEquals(0, dryRun.exitCode(), dryRun::toString);
    for (String name : ALL_KUSTOMIZATIONS) {
      assertTrue(
          dryRun
              .out()
              .contains("Kustomization " + ns + "/" + name + ": migrated to its Capstan twin"),
          dryRun::toString);
    }
    assertTrue(dryRun.out().contains("dry run: nothing changed"), dryRun::toString);
    assertNull(resources().read(FluxKind.GIT_REPOSITORY, true, ns, "fleet").orElse(null));

    long started = System.nanoTime();
    CliRun applied = migrate("--apply");
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertEquals(0, applied.exitCode(), applied::toString);
    System.err.println("migration of " + uids.size() + " objects took " + took);
    assertMigrated(uids);
    assertEquals(fluxInventory, kustomization(true, "apps").inventory());

    CliRun again = migrate("--apply");
    assertEquals(0, again.exitCode(), again::toString);
    assertTrue(again.out().contains("nothing to do"), again::toString);
    assertEquals(uids, uids());

    CliRun rollback = migrate("--rollback", "--apply");
    assertEquals(0, rollback.exitCode(), rollback::toString);
    assertHandedBack(uids);

    // killed half-way, a rollback hands back what the killed run had taken
    migrateKilledHalfWay("killed-then-rolled-back");
    CliRun rollbackOfKilled = migrate("--rollback", "--apply");
    assertEquals(0, rollbackOfKilled.exitCode(), rollbackOfKilled::toString);
    assertHandedBack(uids);

    // killed half-way and run again: the same result as one run
    migrateKilledHalfWay("killed-then-run-again");
    CliRun migratedAgain = migrate("--apply");
    assertEquals(0, migratedAgain.exitCode(), migratedAgain::toString);
    assertMigrated(uids);

    flux.close();
    fleet.write(
        "apps/production/podinfo.yaml",
        FleetRepository.deployment("podinfo", "ghcr.io/stefanprodan/podinfo:6.7.0")
            + "---\n"
            + FleetRepository.service("podinfo", "podinfo")
            + "---\n"
            + FleetRepository.configMap("podinfo-config", "color: green"));
    fleet.remove("apps/production/flags.yaml");
    fleet.write("apps/production/kustomization.yaml", "resources: [podinfo.yaml]\n");
    String commit = fleet.commit("Green podinfo, no legacy flags");
    requestReconcile();
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                String.valueOf(kustomization(true, "apps").status().get("lastAppliedRevision"))
                    .endsWith(commit));
    assertEquals(
        "green",
        client
            .configMaps()
            .inNamespace(ns)
            .withName("podinfo-config")
            .get()
            .getData()
            .get("color"));
    assertNull(client.configMaps().inNamespace(ns).withName("legacy-flags").get());
    assertEquals(List.of("ConfigMap/legacy-flags"), deletions);
    Map<String, String> after = uids();
    Map<String, String> expected = new TreeMap<>(uids);
    expected.remove("ConfigMap/legacy-flags");
    assertEquals(expected, after);
  }

  /** Everything Ready under Capstan, Flux's objects gone, no uid changed, no field left to Flux. */
  private static void assertMigrated(Map<String, String> uids) {
    for (String name : ALL_KUSTOMIZATIONS) {
      Manifest twin = kustomization(true, name);
      assertTrue(twin.readyNow(), name + ": " + twin.readyMessage());
      assertTrue(resources().read(FluxKind.KUSTOMIZATION, false, ns, name).isEmpty(), name);
    }
    for (Map.Entry<FluxKind, String> each : SOURCES.entrySet()) {
      FluxKind source = each.getKey();
      String name = each.getValue();
      Manifest twin = resources().read(source, true, ns, name).orElseThrow();
      assertTrue(twin.readyNow(), name + ": " + twin.readyMessage());
      assertTrue(resources().read(source, false, ns, name).isEmpty(), name);
    }
    assertEquals(uids, uids(), "no object was re-created");
    assertEquals(List.of(), deletions, "nothing was deleted");
    managers()
        .forEach(
            (name, owners) -> {
              assertTrue(owners.contains("capstan"), name + " " + owners);
              assertTrue(!owners.contains("kustomize-controller"), name + " " + owners);
            });
    for (HasMetadata object : applied()) {
      Map<String, String> labels = object.getMetadata().getLabels();
      assertTrue(
          labels == null || labels.keySet().stream().noneMatch(l -> l.contains("fluxcd.io")),
          object.getMetadata().getName() + " keeps Flux's labels: " + labels);
    }
  }

  /** Flux runs everything again: no twin left, no uid changed, nothing deleted, no field lost. */
  private static void assertHandedBack(Map<String, String> uids) {
    awaitFluxReady();
    assertEquals(List.of(), resources().capstan(Optional.of(ns)), "every twin is gone");
    assertEquals(uids, uids());
    assertEquals(List.of(), deletions, "nothing is deleted by the rollback");
    await()
        .atMost(Duration.ofMinutes(1))
        .untilAsserted(
            () ->
                managers()
                    .forEach(
                        (name, owners) ->
                            assertTrue(
                                !owners.contains("capstan")
                                    && owners.contains("kustomize-controller"),
                                name + " " + owners)));
  }

  /**
   * Runs {@code --apply} as a process of its own and SIGKILLs it the moment the first
   * Kustomization's twin appears (the sources are migrated by then, every Flux Kustomization is
   * still there); checks that the kill came half-way.
   */
  private static void migrateKilledHalfWay(String name) throws Exception {
    String first = KUSTOMIZATIONS.get(0);
    CountDownLatch twinCreated = new CountDownLatch(1);
    Watcher<GenericKubernetesResource> watcher =
        new Watcher<>() {
          @Override
          public void eventReceived(Action action, GenericKubernetesResource object) {
            if (action == Action.ADDED && first.equals(object.getMetadata().getName())) {
              twinCreated.countDown();
            }
          }

          @Override
          public void onClose(WatcherException cause) {}
        };
    MigrationProcess run;
    try (Watch watch =
        client
            .genericKubernetesResources(FluxKind.KUSTOMIZATION.capstanApiVersion(), "Kustomization")
            .inNamespace(ns)
            .watch(watcher)) {
      run =
          MigrationProcess.start(
              access.kubeconfig(),
              work.resolve(name + ".log"),
              "migrate",
              "flux",
              "-n",
              ns,
              "--timeout",
              "2m",
              "--apply");
      boolean created = twinCreated.await(2, TimeUnit.MINUTES);
      boolean stillRunning = run.isAlive();
      run.kill();
      assertTrue(created && stillRunning, () -> "not killed half-way:\n" + run.output());
    }
    assertTrue(resources().read(FluxKind.KUSTOMIZATION, true, ns, first).isPresent());
    long fluxLeft =
        KUSTOMIZATIONS.stream()
            .filter(k -> resources().read(FluxKind.KUSTOMIZATION, false, ns, k).isPresent())
            .count();
    assertTrue(fluxLeft >= 2, () -> "killed too late: " + fluxLeft + "\n" + run.output());
  }

  private static CliRun migrate(String... args) {
    List<String> all = new ArrayList<>(List.of("migrate", "flux", "-n", ns, "--timeout", "2m"));
    all.addAll(List.of(args));
    return CliRun.capstan(access.kubeconfig(), all.toArray(String[]::new));
  }

  private static void createFluxObjects() {
    new FluxFleetObjects(client, ns, SELECTOR)
        .create(server.url("fleet"), KUSTOMIZATIONS, registry.url("fleet/tools"), s3.endpoint());
  }

  private static void awaitFluxReady() {
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                ALL_KUSTOMIZATIONS.stream()
                    .allMatch(
                        name ->
                            resources()
                                .read(FluxKind.KUSTOMIZATION, false, ns, name)
                                .map(Manifest::readyNow)
                                .orElse(false)));
  }

  private static void requestReconcile() {
    client
        .genericKubernetesResources("source.capstan.dev/v1", "GitRepository")
        .inNamespace(ns)
        .withName("fleet")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client
                .getKubernetesSerialization()
                .asJson(ReconcileRequest.at(Clock.systemUTC()).mergePatch()));
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
    watches.add(client.apps().deployments().inNamespace(ns).watch(cast(watcher)));
  }

  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> Watcher<T> cast(Watcher<HasMetadata> watcher) {
    return (Watcher<T>) (Watcher<?>) watcher;
  }

  /** The objects the Kustomizations applied (ConfigMaps other than the namespace's own). */
  private static List<HasMetadata> applied() {
    return Stream.of(
            client.configMaps().inNamespace(ns).list().getItems().stream()
                .filter(c -> !c.getMetadata().getName().equals("kube-root-ca.crt"))
                .map(HasMetadata.class::cast),
            client.services().inNamespace(ns).list().getItems().stream()
                .map(HasMetadata.class::cast),
            client.apps().deployments().inNamespace(ns).list().getItems().stream()
                .map(HasMetadata.class::cast))
        .flatMap(s -> s)
        .toList();
  }

  private static Map<String, String> uids() {
    Map<String, String> uids = new TreeMap<>();
    applied()
        .forEach(
            o -> uids.put(o.getKind() + "/" + o.getMetadata().getName(), o.getMetadata().getUid()));
    return uids;
  }

  /** The managers of each applied object's main resource (status writers left out). */
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

  private static Manifest kustomization(boolean capstan, String name) {
    return resources().read(FluxKind.KUSTOMIZATION, capstan, ns, name).orElseThrow();
  }

  private static KindResources resources() {
    return new KindResources(client);
  }

  /** Removes what is left of one kind without letting any controller act on its deletion. */
  private static void release(FluxKind kind, boolean capstan) {
    for (Manifest object :
        capstan ? resources().capstan(Optional.of(ns)) : resources().flux(Optional.of(ns))) {
      if (object.kind() != kind) {
        continue;
      }
      var resource =
          capstan
              ? resources().capstan(kind, ns, object.name())
              : resources().flux(kind, ns, object.name());
      Finalizers.clear(resource);
      resource.delete();
    }
  }
}
