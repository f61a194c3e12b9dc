package dev.capstan.cli.status;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs {@code capstan status} in-process with a given standard input. */
final class StatusCli {
  record Result(int exitCode, String out, String err) {}

  private StatusCli() {}

  static Result run(String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli =
        new CommandLine(
            new StatusCommand(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(args);
    return new Result(code, out.toString(), err.toString());
  }
}
