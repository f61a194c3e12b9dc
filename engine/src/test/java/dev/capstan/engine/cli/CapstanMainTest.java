package dev.capstan.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CapstanMainTest {

  @Test
  void helpListsEveryContractSubcommand() {
    CommandLine cli = CapstanMain.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out));
    assertEquals(0, cli.execute("--help"));
    for (String name : new String[] {"status", "build", "apply", "diff", "fetch", "run", "get",
        "reconcile", "suspend", "resume", "tree"}) {
      assertTrue(out.toString().contains(name), () -> "help lacks " + name + ":\n" + out);
    }
  }
}
