package dev.capstan.cli.faults;

import dev.capstan.cli.install.CapstanProcess;
import dev.capstan.engine.ops.leader.LeaderElection;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fault bench's engines: {@code capstan run} processes, each reaching the API server through a
 * {@link FaultyProxy} of its slot. One engine and one slot by default; with a standby ({@link
 * #withStandby}) two slots and two engines that elect a leader on a Lease, so that a partition of
 * the leader's slot hands the work to the other. Each engine names itself to the API server by its
 * user agent ({@value #AGENT_PREFIX}NAME), which the audit log records ({@link WriterAudit}).
 */
final class FaultEngines implements AutoCloseable {
  static final String AGENT_PREFIX = "capstan-faults/";

  private final KubernetesClient admin;
  private final Path workDir;
  private final List<String> jvmArgs;
  private final String selector;
  private final Path kubeconfig;
  private final List<ProxiedApiServer> slots = new ArrayList<>();
  private final List<Started> engines = new ArrayList<>();
  private ArtifactDisks disks;

  /** An engine started: its process, the slot it reaches the API server through, its name. */
  private record Started(CapstanProcess process, ProxiedApiServer slot, String name) {}

  FaultEngines(
      KubernetesClient admin, Path kubeconfig, Path workDir, List<String> jvmArgs, String selector)
      throws IOException {
    this.admin = admin;
    this.workDir = workDir;
    this.jvmArgs = List.copyOf(jvmArgs);
    this.selector = selector;
    this.kubeconfig = kubeconfig;
    slots.add(newSlot());
  }

  private ProxiedApiServer newSlot() throws IOException {
    return ProxiedApiServer.start(
        kubeconfig, workDir.resolve("engine-" + slots.size() + ".kubeconfig"));
  }

  /** Two engines electing a leader, each through a slot of its own; before {@link #start}. */
  void withStandby() throws IOException {
    if (!hasStandby()) {
      slots.add(newSlot());
    }
  }

  boolean hasStandby() {
    return slots.size() > 1;
  }

  /** Puts each engine's artifact store on a tmpfs of {@code bytes}; before {@link #start}. */
  void artifactsOnDisksOf(long bytes) {
    disks = new ArtifactDisks(bytes);
  }

  ArtifactDisks disks() {
    if (disks == null) {
      throw new IllegalStateException("the engine's artifacts are not on a disk of their own");
    }
    return disks;
  }

  /**
   * Starts the engine; with a standby, the first until it leads, then the second beside it (so the
   * first slot's engine is the leader at the start).
   */
  void start() throws IOException, InterruptedException {
    if (!hasStandby()) {
      startEngine();
      return;
    }
    awaitLeaseNamespace();
    LeaseRefusal.sweep(admin, leaseName());
    Started first = start(slots.get(0));
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (!holder().equals(Optional.of(first.name()))) {
      if (!first.process().isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the first engine did not take the Lease:\n" + first.process().logTail());
      }
      Thread.sleep(200);
    }
    start(slots.get(1));
  }

  /**
   * The Leases' namespace, made if missing and awaited while it terminates: a test before may have
   * removed an installation that made it.
   */
  private void awaitLeaseNamespace() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      Namespace ns = admin.namespaces().withName(CapstanProcess.NAMESPACE).get();
      if (ns != null && ns.getStatus() != null && "Active".equals(ns.getStatus().getPhase())) {
        return;
      }
      if (ns == null) {
        try {
          admin
              .namespaces()
              .resource(
                  new NamespaceBuilder()
                      .withNewMetadata()
                      .withName(CapstanProcess.NAMESPACE)
                      .endMetadata()
                      .build())
              .create();
        } catch (KubernetesClientException e) {
          // made meanwhile, or still going: look again
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(CapstanProcess.NAMESPACE + " did not become active");
      }
      Thread.sleep(500);
    }
  }

  /** Starts an engine in the slot no live engine uses (the previous one, if any, must be gone). */
  CapstanProcess startEngine() throws IOException {
    for (ProxiedApiServer slot : slots) {
      if (engines.stream().noneMatch(e -> e.process().isAlive() && e.slot() == slot)) {
        return start(slot).process();
      }
    }
    throw new IllegalStateException("every slot has a live engine");
  }

  private Started start(ProxiedApiServer slot) throws IOException {
    String name = "faults-" + engines.size();
    if (disks != null) {
      try {
        // CapstanProcess keeps a pod's artifacts in <work>/<pod>-artifacts
        disks.mount(workDir.resolve(name + "-artifacts"));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while mounting the artifact disk", e);
      }
    }
    List<String> jvm = new ArrayList<>(jvmArgs);
    jvm.add("-Dkubernetes.user.agent=" + AGENT_PREFIX + name);
    List<String> args = new ArrayList<>(List.of("--watch-label-selector", selector));
    if (hasStandby()) {
      args.add("--leader-elect");
    }
    Started engine =
        new Started(CapstanProcess.start(slot.kubeconfig(), workDir, name, jvm, args), slot, name);
    engines.add(engine);
    return engine;
  }

  /**
   * The engine that does the work: with a standby, the live one whose name holds the Lease (the
   * newest while none does); else the newest.
   */
  CapstanProcess engine() {
    CapstanProcess newest = engines.get(engines.size() - 1).process();
    if (!hasStandby()) {
      return newest;
    }
    Optional<String> holder = holderQuietly();
    return engines.stream()
        .filter(e -> e.process().isAlive() && holder.equals(Optional.of(e.name())))
        .map(Started::process)
        .findFirst()
        .orElse(newest);
  }

  String name(CapstanProcess engine) {
    return started(engine).name();
  }

  /** The proxy in front of {@code engine}'s API connections. */
  FaultyProxy proxyOf(CapstanProcess engine) {
    return started(engine).slot().proxy();
  }

  private Started started(CapstanProcess engine) {
    return engines.stream()
        .filter(e -> e.process() == engine)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not an engine of this run"));
  }

  /** The Lease the engines elect their leader on, when they have a standby. */
  private Resource<Lease> lease() {
    return admin.leases().inNamespace(CapstanProcess.NAMESPACE).withName(leaseName());
  }

  private String leaseName() {
    return LeaderElection.leaseName(Optional.of(selector));
  }

  /**
   * Refuses {@code holder}'s renewals of the Lease from now until the refusal is closed, its other
   * requests passing ({@link LeaseRefusal}).
   */
  LeaseRefusal refuseRenewals(String holder) throws InterruptedException {
    return LeaseRefusal.start(admin, CapstanProcess.NAMESPACE, leaseName(), holder);
  }

  /** The Lease's holder now, if the Lease exists and names one. */
  Optional<String> holder() {
    Lease lease = lease().get();
    return Optional.ofNullable(lease)
        .map(Lease::getSpec)
        .map(s -> s.getHolderIdentity())
        .filter(h -> !h.isBlank());
  }

  /** As {@link #holder}, empty while the API server does not answer. */
  Optional<String> holderQuietly() {
    try {
      return holder();
    } catch (RuntimeException e) {
      // the API server may be away (a fault): then no engine is known to lead
      return Optional.empty();
    }
  }

  List<CapstanProcess> all() {
    return engines.stream().map(Started::process).toList();
  }

  /** Frees the disks, the proxies and the Lease; the engines are stopped by the caller first. */
  @Override
  public void close() throws Exception {
    // Nested so that whatever one close throws, the others still run.
    try {
      if (disks != null) {
        disks.close();
      }
    } finally {
      try {
        for (ProxiedApiServer slot : slots) {
          try {
            slot.close();
          } catch (IOException e) {
            // the proxy's server socket was already closed, or the copy already gone
          }
        }
      } finally {
        if (hasStandby()) {
          deleteLease();
        }
      }
    }
  }

  private void deleteLease() {
    try {
      lease().delete();
    } catch (RuntimeException e) {
      // best effort: a Lease left behind names a selector no later run uses
    }
  }
}
