package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.Snapshot;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.cli.CapstanMain;
import dev.capstan.testing.ClusterAccess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * status.history as a user sees it: each reconcile of a built set counted under its digest and
 * outcome, most recent first, with its revision; `capstan get -o wide` and `capstan tree` show it.
 */
class HistoryIT extends EngineTestBase {

  private static List<Snapshot> history() {
    var status = engine.kustomization("app").getStatus();
    return status == null || status.history() == null ? List.of() : status.history();
  }

  private static String capstan(ClusterAccess cluster, String... args) {
    CommandLine cli = CapstanMain.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(new StringWriter(), true));
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--kubeconfig";
    all[args.length + 1] = cluster.kubeconfig().toString();
    assertEquals(0, cli.execute(all), () -> String.join(" ", args) + ":\n" + out);
    return out.toString();
  }

  @Test
  void reconcilesAreCountedPerAppliedSetAndOutcomeAndShownByTheCommands(ClusterAccess cluster) {
    String good = git.commit(Map.of("app/settings.yaml", Manifests.configMap("settings", "1")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "");
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    EngineFixture.eventually(Duration.ofSeconds(30)).until(() -> history().size() == 1);
    Snapshot first = history().get(0);
    assertEquals("ReconciliationSucceeded", first.lastReconciledStatus());
    assertEquals(Map.of("revision", good), first.metadata());
    assertTrue(first.digest().matches("sha256:[0-9a-f]{64}"), first.digest());

    long counted = first.totalReconciliations();
    engine.requestReconcile(Kustomization.class, "app");
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(() -> history().get(0).totalReconciliations() > counted);
    long succeeded = history().get(0).totalReconciliations();

    String bad =
        git.commit(
            Map.of(
                "app/settings.yaml",
                "apiVersion: v1\n"
                    + "kind: ConfigMap\n"
                    + "metadata: {name: settings}\n"
                    + "data: {value: [1]}\n"));
    engine.requestReconcile(GitRepository.class, "repo");
    EngineFixture.eventually(Duration.ofSeconds(60)).until(() -> history().size() >= 2);
    assertEquals(2, history().size(), () -> history().toString());
    Snapshot failed = history().get(0);
    assertEquals("ApplyFailed", failed.lastReconciledStatus());
    assertEquals(Map.of("revision", bad), failed.metadata());
    assertEquals(first.digest(), history().get(1).digest());
    assertEquals(succeeded, history().get(1).totalReconciliations());

    String wide = capstan(cluster, "get", "ks", "app", "-n", ns(), "-o", "wide");
    assertTrue(wide.lines().toList().get(0).endsWith("HISTORY"), wide);
    assertTrue(
        wide.lines()
            .toList()
            .get(1)
            .matches(".*ApplyFailed×\\d+,ReconciliationSucceeded×" + succeeded),
        wide);
    String tree = capstan(cluster, "tree", "ks", "app", "-n", ns());
    assertTrue(tree.contains("last reconciles"), tree);
    assertTrue(tree.matches("(?s).*ApplyFailed ×\\d+  " + bad + ".*"), tree);
    assertTrue(tree.contains("ReconciliationSucceeded ×" + succeeded + "  " + good), tree);
  }
}
