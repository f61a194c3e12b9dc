package dev.capstan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CapstanMainTest {

  @Test
  void helpListsEveryContractSubcommand() {
    CommandLine cli = CapstanMain.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out));
    assertEquals(0, cli.execute("--help"));
    for (String name :
        new String[] {
          "status",
          "build",
          "apply",
          "diff",
          "fetch",
          "run",
          "get",
          "reconcile",
          "suspend",
          "resume",
          "tree",
          "ui",
          "install",
          "bootstrap",
          "migrate"
        }) {
      assertTrue(out.toString().contains(name), () -> "help lacks " + name + ":\n" + out);
    }
  }

  @Test
  void argumentsNamingASubcommandBuildOnlyThatOne() {
    CommandLine cli = CapstanMain.commandLine(new String[] {"apply", "-f", "dir"});
    assertEquals(Set.of("help", "apply"), cli.getSubcommands().keySet());
  }

  @Test
  void otherArgumentsGetEverySubcommand() {
    for (String[] args : new String[][] {{}, {"--help"}, {"help", "apply"}, {"no-such-command"}}) {
      CommandLine cli = CapstanMain.commandLine(args);
      assertEquals(
          CapstanMain.commandLine().getSubcommands().keySet(), cli.getSubcommands().keySet());
    }
  }

  @Test
  void aLazilyBuiltSubcommandParsesAndReportsUsageErrorsAsTheFullCommandLineDoes() {
    StringWriter err = new StringWriter();
    CommandLine cli = CapstanMain.commandLine(new String[] {"apply"});
    cli.setErr(new PrintWriter(err));
    assertEquals(2, cli.execute("apply"));
    assertTrue(err.toString().contains("Missing required option: '--filename=DIR'"), err::toString);
  }
}
