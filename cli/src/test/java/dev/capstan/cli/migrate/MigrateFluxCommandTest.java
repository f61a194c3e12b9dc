package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import org.junit.jupiter.api.Test;

class MigrateFluxCommandTest {

  @Test
  void applyAndDryRunTogetherAreBadInputBeforeAnyClusterIsReached() {
    CliRun run = CliRun.run("migrate", "flux", "--apply", "--dry-run", "--kubeconfig", "/nowhere");

    assertEquals(2, run.exitCode(), run::toString);
    assertEquals("error: --apply and --dry-run exclude each other\n", run.err());
  }

  @Test
  void helpNamesWhatIsMovedAndTheOptions() {
    CliRun run = CliRun.run("migrate", "flux", "--help");

    assertEquals(0, run.exitCode(), run::toString);
    for (String word :
        new String[] {"--apply", "--rollback", "--timeout", "Kustomizations", "HelmReleases"}) {
      assertTrue(run.out().contains(word), run::toString);
    }
  }
}
