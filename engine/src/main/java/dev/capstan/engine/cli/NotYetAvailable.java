package dev.capstan.engine.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** A subcommand that is listed in {@code --help} but not part of this build yet. */
final class NotYetAvailable implements Callable<Integer> {
  static final int EXIT_CODE = 3;
  private final String name;

  private NotYetAvailable(String name) {
    this.name = name;
  }

  static CommandLine spec(String name, String description) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(new NotYetAvailable(name));
    spec.usageMessage().description(description + " (not available in this build yet)");
    CommandLine cli = new CommandLine(spec);
    cli.setUnmatchedArgumentsAllowed(true);
    return cli;
  }

  @Override
  public Integer call() {
    System.err.println("capstan " + name + ": not available in this build yet");
    return EXIT_CODE;
  }
}
