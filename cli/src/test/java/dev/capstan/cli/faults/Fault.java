package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultyProxy.Mode;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * The faults the bench injects, each on this machine only and bounded in time. Each starts a moment
 * after a commit and a fetch request, so it lands while reconciles run; {@link #inject} returns
 * when the fault has ended.
 */
public enum Fault {
  /**
   * Nothing: the baseline, how long the bench takes to see the round's commit converged with no
   * fault at all (the interval and the fetch request's way through the engine).
   */
  NONE("none", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) {}
  },
  /**
   * SIGKILL of the engine at a seeded random moment 0.2-2 s after a commit and a fetch request
   * (while that revision's reconciles may run; where it lands is not checked), and a new engine.
   */
  KILL("kill-9", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      cluster.killAndRestartEngine();
    }
  },
  /**
   * SIGKILL of the engine as it applies a Kustomization's objects: a commit renews one
   * Kustomization's objects ({@link AimedKill#NEW_OBJECTS} new ones, every old one removed), and
   * the kill follows the first new object seen created; then a new engine.
   */
  KILL_MID_APPLY("kill-9-mid-apply", false) {
    @Override
    String injectAndSay(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      return cluster.aimedKill().inject(cluster, AimedKill.Stage.APPLY);
    }
  },
  /** As {@link #KILL_MID_APPLY}, the kill following the first removed object seen deleted. */
  KILL_MID_PRUNE("kill-9-mid-prune", false) {
    @Override
    String injectAndSay(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      return cluster.aimedKill().inject(cluster, AimedKill.Stage.PRUNE);
    }
  },
  /**
   * As {@link #KILL_MID_APPLY}, the kill following the reconcile's first status write (Ready
   * Unknown, in progress for the new revision), before its build and apply.
   */
  KILL_MID_STATUS("kill-9-mid-status", false) {
    @Override
    String injectAndSay(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      return cluster.aimedKill().inject(cluster, AimedKill.Stage.STATUS);
    }
  },
  /**
   * SIGKILL of every kustomize build worker of the engine, every 100 ms for 5 s (builds of the
   * round's commit run meanwhile, so some are killed mid-build): the engine must notice, start new
   * workers and converge. Fails to inject if no worker was found to kill.
   */
  WORKER_KILL("worker-kill", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      int killed = BuildWorkerKills.killFor(cluster.engine().pid(), Duration.ofSeconds(5));
      if (killed == 0) {
        throw new IllegalStateException(
            "no " + BuildWorkerKills.WORKER + " process of the engine was found to kill");
      }
    }
  },
  /**
   * The engine's artifact store (a tmpfs of its own) filled up, then a commit and a fetch: the
   * fetch must fail with a reason that names the full disk (no stack trace) within 20 s, while the
   * Kustomizations keep the last artifact; then the space is freed. Needs {@link
   * FaultCluster#artifactsOnDisksOf}.
   */
  DISK_FULL("disk-full", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      cluster.disks().fill();
      try {
        cluster.workload().commitChange();
        cluster.requestFetch();
        DiskFullCheck.awaitClearFailure(cluster, Duration.ofSeconds(20));
      } finally {
        cluster.disks().free();
      }
    }
  },
  /** The API server stopped and started again (restart-apiserver), down 2 s. */
  API_RESTART("apiserver-restart", true) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      plane.restartApiServer(2);
    }
  },
  /** The API server paused (SIGSTOP) for 20 s, longer than the client's 10 s timeouts. */
  API_PAUSE("apiserver-pause-20s", true) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      plane.pauseApiServer(Duration.ofSeconds(20));
    }
  },
  GIT_DOWN("git-down-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      hold(cluster.gitProxy(), Mode.DOWN, Duration.ofSeconds(20));
    }
  },
  GIT_SLOW("git-slow-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      hold(cluster.gitProxy(), Mode.SLOW, Duration.ofSeconds(20));
    }
  },
  GIT_500("git-500-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      hold(cluster.gitProxy(), Mode.ERROR_500, Duration.ofSeconds(20));
    }
  },
  GIT_TRUNCATED("git-truncated-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      hold(cluster.gitProxy(), Mode.TRUNCATE, Duration.ofSeconds(20));
    }
  },
  /**
   * The registry proxy resets every connection, new ones too for 20 s; a new artifact is pushed and
   * a fetch asked for at its start, which must fail clearly while the Kustomizations keep the last
   * artifact ({@link RegistryFailureCheck}).
   */
  REGISTRY_DOWN("registry-down-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      cluster.registry().fault(Mode.DOWN, Duration.ofSeconds(20));
    }
  },
  /**
   * The registry's answers trickle at one byte a second for 20 s; a new artifact is pushed and a
   * fetch asked for at its start, which must fail clearly while the Kustomizations keep the last
   * artifact ({@link RegistryFailureCheck}).
   */
  REGISTRY_SLOW("registry-slow-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      cluster.registry().fault(Mode.SLOW, Duration.ofSeconds(20));
    }
  },
  /**
   * Every request to the registry answered 500 for 20 s; a new artifact is pushed and a fetch asked
   * for at its start, which must fail clearly while the Kustomizations keep the last artifact
   * ({@link RegistryFailureCheck}).
   */
  REGISTRY_500("registry-500-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      cluster.registry().fault(Mode.ERROR_500, Duration.ofSeconds(20));
    }
  },
  /**
   * The registry's answers cut after their first kilobyte for 20 s; a new artifact is pushed and a
   * fetch asked for at its start, which must fail clearly while the Kustomizations keep the last
   * artifact ({@link RegistryFailureCheck}).
   */
  REGISTRY_TRUNCATED("registry-truncated-20s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      cluster.registry().fault(Mode.TRUNCATE, Duration.ofSeconds(20));
    }
  },
  /** 200 commits in a minute to the one repository, a fetch asked for every tenth. */
  FLOOD("flood-200", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      for (int i = 0; i < 200; i++) {
        cluster.workload().commitChange();
        if (i % 10 == 9) {
          cluster.requestFetch();
        }
        Thread.sleep(300);
      }
    }
  },
  /** The engine's API connections reset and refused for 5 s. */
  PARTITION_DROP("partition-drop-5s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      hold(cluster.apiProxy(), Mode.DOWN, Duration.ofSeconds(5));
    }
  },
  /**
   * The engine's API connections black-holed for 60 s: its requests and watches hang, time out on
   * its side and are retried. The engine runs without leader election (no Lease, no standby), so
   * this checks that it catches up once the partition heals, not a take-over.
   */
  PARTITION_BLACK_HOLE("partition-blackhole-60s", false) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      hold(cluster.apiProxy(), Mode.BLACK_HOLE, Duration.ofSeconds(60));
    }
  },
  /**
   * The leading engine's API connections black-holed for 60 s while a standby waits (a run that
   * names it runs two engines electing a leader, {@link #needStandby}): the standby must take the
   * Lease over, the old leader exit, and no write of the old leader follow one of the new leader's
   * (from the audit log, if the API server writes one). Then a new standby is started.
   */
  PARTITION_LEADER("partition-leader-60s", false) {
    @Override
    String injectAndSay(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      return cluster
          .leaderPartition(plane.auditLog())
          .inject(LeaderPartition.Cut.CONNECTIONS, Duration.ofSeconds(60));
    }
  },
  /**
   * The leading engine cut off from its Lease only for 30 s, while a standby waits: the API server
   * refuses its renewals and passes every other request of it, so it could go on writing beside a
   * new leader; it must stop by itself before the standby takes the Lease over, and no write of it
   * may follow one of the new leader's (from the audit log, if the API server writes one). Then a
   * new standby is started.
   */
  PARTITION_LEASE("partition-lease-30s", false) {
    @Override
    String injectAndSay(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      return cluster
          .leaderPartition(plane.auditLog())
          .inject(LeaderPartition.Cut.LEASE, Duration.ofSeconds(30));
    }
  },
  /**
   * etcd compacted at its current revision and the API server restarted: its watch cache starts
   * anew, so every watch resumed from an older resourceVersion is answered 410 Gone and relists.
   */
  RELIST("relist-410", true) {
    @Override
    void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
      RelistProbe probe = cluster.relistProbe();
      String before = probe.listResourceVersion();
      plane.compactEtcd();
      plane.restartApiServer(1);
      if (!probe.watchFromIsGone(before)) {
        throw new IllegalStateException(
            "a watch from resourceVersion " + before + " was not answered 410 Gone");
      }
    }
  };

  private final String label;
  private final boolean touchesControlPlane;

  Fault(String label, boolean touchesControlPlane) {
    this.label = label;
    this.touchesControlPlane = touchesControlPlane;
  }

  /** The name the bench prints and takes as an option. */
  public String label() {
    return label;
  }

  /** Whether it acts on the local control plane's processes (so every client sees it). */
  public boolean touchesControlPlane() {
    return touchesControlPlane;
  }

  /**
   * Whether a run of {@code faults} needs the registry side (its registry, OCIRepository and
   * Kustomizations): only if one of them is a registry fault, so every other run is as before. The
   * one place that decides it.
   */
  public static boolean needRegistry(Collection<Fault> faults) {
    return faults.stream().anyMatch(f -> f.label.startsWith("registry-"));
  }

  /**
   * Whether a run of {@code faults} runs two engines that elect a leader rather than one: only if
   * it cuts a leader off while a standby waits. The one place that decides it.
   */
  public static boolean needStandby(Collection<Fault> faults) {
    return faults.stream().anyMatch(Fault::cutsALeader);
  }

  private boolean cutsALeader() {
    return this == PARTITION_LEADER || this == PARTITION_LEASE;
  }

  /**
   * Refuses a run that names a fault that cuts a leader off beside any other fault: with two
   * engines the others would act on one of them only (a disk, a kill) or leave no standby for its
   * next round.
   */
  public static void checkRun(Collection<Fault> faults) {
    if (needStandby(faults) && !faults.stream().allMatch(Fault::cutsALeader)) {
      throw new IllegalArgumentException(
          PARTITION_LEADER.label
              + " and "
              + PARTITION_LEASE.label
              + " run without other faults: they run two engines electing a leader");
    }
  }

  /** Every fault but those that cut a leader off, which run apart: what {@code all} names. */
  public static List<Fault> all() {
    return Arrays.stream(values()).filter(f -> !f.cutsALeader()).toList();
  }

  /** Injects the fault; returns when it has ended. */
  void inject(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
    throw new UnsupportedOperationException(label + " says where it landed: injectAndSay");
  }

  /**
   * Injects the fault; returns where it landed when that is worth a word (how far an aimed kill cut
   * its stage), else null.
   */
  String injectAndSay(FaultCluster cluster, ControlPlane plane, Random random) throws Exception {
    inject(cluster, plane, random);
    return null;
  }

  public static Fault named(String label) {
    return Arrays.stream(values())
        .filter(f -> f.label.equals(label))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no fault "
                        + label
                        + "; the faults: "
                        + Arrays.stream(values())
                            .map(Fault::label)
                            .collect(Collectors.joining(" "))));
  }

  private static void hold(FaultyProxy proxy, Mode mode, Duration duration)
      throws InterruptedException {
    proxy.set(mode);
    try {
      Thread.sleep(duration.toMillis());
    } finally {
      proxy.set(Mode.PASS);
    }
  }
}
