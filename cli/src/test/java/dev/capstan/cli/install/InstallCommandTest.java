package dev.capstan.cli.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How {@code capstan install} reads its options, without a cluster. */
class InstallCommandTest {

  @Test
  void theWaitIsOnByDefaultAndSkippedEitherWay() {
    assertTrue(parsed().wait);
    assertFalse(parsed("--no-wait").wait);
    assertFalse(parsed("--wait=false").wait);
    assertTrue(parsed("--wait").wait);
  }

  @Test
  void theSettingsAreThoseOfDeployUnlessChanged() {
    assertEquals(InstallSettings.defaults(), parsed().install.settings());
    assertEquals(
        new InstallSettings("gitops", true, "r/c:1"),
        parsed("-n", "gitops", "--multi-tenant", "--image", "r/c:1").install.settings());
  }

  private static InstallCommand parsed(String... args) {
    InstallCommand command = new InstallCommand();
    new CommandLine(command).parseArgs(args);
    return command;
  }
}
