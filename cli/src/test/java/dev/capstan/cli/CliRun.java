package dev.capstan.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs the assembled {@code capstan} command line in-process and captures what it printed. */
public record CliRun(int exitCode, String out, String err) {

  public static CliRun capstan(Path kubeconfig, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--kubeconfig");
    all.add(kubeconfig.toString());
    return run(all.toArray(String[]::new));
  }

  public static CliRun run(String... args) {
    CommandLine cli = CapstanMain.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }

  public List<String> outLines() {
    return out.lines().toList();
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
  }
}
