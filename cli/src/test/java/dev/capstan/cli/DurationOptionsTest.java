package dev.capstan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** Every duration option of every subcommand reads Go durations the same way and refuses zero. */
class DurationOptionsTest {

  private record DurationOption(String command, String option) {}

  private static List<DurationOption> durationOptions() {
    List<DurationOption> found = new ArrayList<>();
    CapstanMain.commandLine()
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              for (OptionSpec option : sub.getCommandSpec().options()) {
                if (option.type() == Duration.class) {
                  found.add(new DurationOption(name, option.longestName()));
                }
              }
            });
    return found;
  }

  @Test
  void theTimeoutsAreFound() {
    List<DurationOption> options = durationOptions();
    for (String command : new String[] {"apply", "reconcile", "resume", "run"}) {
      assertTrue(
          options.stream().anyMatch(o -> o.command().equals(command)), command + ": " + options);
    }
  }

  @Test
  void everyDurationOptionReadsGoDurations() {
    for (DurationOption o : durationOptions()) {
      for (String[] value :
          new String[][] {{"1.5m", "PT1M30S"}, {"90s", "PT1M30S"}, {"1h2m", "PT1H2M"}}) {
        CommandLine top = CapstanMain.commandLine(new String[] {o.command()});
        top.parseArgs(
            withCommand(o.command(), requiredArguments(o.command(), o.option(), value[0])));
        Duration parsed =
            top.getSubcommands()
                .get(o.command())
                .getCommandSpec()
                .findOption(o.option())
                .getValue();
        assertEquals(Duration.parse(value[1]), parsed, o + " " + value[0]);
      }
    }
  }

  @Test
  void everyDurationOptionRefusesZeroNamingTheOption() {
    for (DurationOption o : durationOptions()) {
      CommandLine cli = CapstanMain.commandLine(new String[] {o.command()});
      ParameterException e =
          assertThrows(
              ParameterException.class,
              () ->
                  cli.parseArgs(
                      withCommand(o.command(), requiredArguments(o.command(), o.option(), "0s"))),
              o::toString);
      assertEquals(
          "Invalid value for option '" + o.option() + "': '0s' must be more than 0s",
          e.getMessage());
      ParameterException bad =
          assertThrows(
              ParameterException.class,
              () ->
                  cli.parseArgs(
                      withCommand(o.command(), requiredArguments(o.command(), o.option(), "soon"))),
              o::toString);
      assertTrue(
          bad.getMessage()
              .startsWith("Invalid value for option '" + o.option() + "': invalid duration"),
          bad.getMessage());
      assertFalse(bad.getMessage().contains("Exception"), bad.getMessage());
    }
  }

  /**
   * Fetch reads its --timeout itself (it reports bad input in one line, without the usage), with
   * the same parser.
   */
  @Test
  void fetchReadsItsTimeoutTheSameWay() {
    CliRun zero =
        CliRun.run(
            "fetch", "--url", "https://example.invalid/r.git", "--dir", "d", "--timeout", "0s");
    assertEquals(2, zero.exitCode(), zero::toString);
    assertEquals(
        "error: Invalid value for option '--timeout': '0s' must be more than 0s\n", zero.err());
    CliRun soon =
        CliRun.run(
            "fetch", "--url", "https://example.invalid/r.git", "--dir", "d", "--timeout", "soon");
    assertEquals(2, soon.exitCode(), soon::toString);
    assertTrue(
        soon.err()
            .startsWith("error: Invalid value for option '--timeout': invalid duration \"soon\""),
        soon::toString);
  }

  private static String[] withCommand(String command, String[] arguments) {
    String[] all = new String[arguments.length + 1];
    all[0] = command;
    System.arraycopy(arguments, 0, all, 1, arguments.length);
    return all;
  }

  /** The option with its value, plus what the command cannot parse without. */
  private static String[] requiredArguments(String command, String option, String value) {
    return switch (command) {
      case "apply" -> new String[] {"-f", ".", option, value};
      case "fetch" ->
          new String[] {"--url", "https://example.invalid/r.git", "--dir", "d", option, value};
      case "reconcile", "resume" -> new String[] {"ks", "app", option, value};
      default -> new String[] {option, value};
    };
  }
}
