package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** KIND NAME [-n NS], as every command acting on one object reads them; no cluster is needed. */
class ObjectArgumentsTest {

  @Test
  void treeRefusesOtherKindsAsAUsageErrorBeforeTouchingTheCluster() {
    CliRun run = CliRun.run("tree", "gitrepo", "repo", "--kubeconfig", "/nonexistent/kubeconfig");
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(
        run.err()
            .startsWith(
                "Invalid value for positional parameter at index 0 (KIND):"
                    + " only Kustomizations and HelmReleases have an inventory"),
        run::toString);
    assertTrue(run.err().contains("Usage: capstan tree"), run::toString);
  }

  @Test
  void treeReadsTheSameArgumentsAsTheOtherCommands() {
    TreeCommand tree = new TreeCommand();
    new CommandLine(tree).parseArgs("kustomization", "apps", "-n", "team");
    assertEquals(CapstanKind.KUSTOMIZATION, tree.target.kind);
    assertEquals("apps", tree.target.name);
    assertEquals("team", tree.target.namespace);
  }

  @Test
  void anUnknownKindIsAUsageError() {
    for (String command : new String[] {"tree", "suspend", "resume", "reconcile"}) {
      CliRun run = CliRun.run(command, "deployment", "web");
      assertEquals(2, run.exitCode(), run::toString);
      assertTrue(
          run.err().startsWith("Invalid value for positional parameter at index 0 (KIND):"),
          run::toString);
    }
  }

  @Test
  void suspendAndResumeShareTheirArgumentsAndOnlyResumeWaits() {
    SuspendCommand suspend = new SuspendCommand();
    new CommandLine(suspend).parseArgs("gitrepo", "repo", "-n", "team", "--context", "other");
    assertEquals(CapstanKind.GIT_REPOSITORY, suspend.target.kind);
    assertTrue(suspend.waitFor().isEmpty());

    ResumeCommand resume = new ResumeCommand();
    new CommandLine(resume).parseArgs("ks", "apps", "--timeout", "1.5m");
    assertEquals(Duration.ofSeconds(90), resume.waitFor().orElseThrow());
    ResumeCommand noWait = new ResumeCommand();
    new CommandLine(noWait).parseArgs("ks", "apps", "--no-wait");
    assertTrue(noWait.waitFor().isEmpty());

    CliRun run = CliRun.run("suspend", "ks", "apps", "--no-wait");
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(run.err().startsWith("Unknown option: '--no-wait'"), run::toString);
  }
}
