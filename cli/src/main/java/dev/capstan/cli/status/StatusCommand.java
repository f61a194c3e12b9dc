package dev.capstan.cli.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.HealthCheckExprsYaml;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.kube.ObjectRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code capstan status}: the health of every object in a file, computed without a cluster. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Evaluate the health of objects in a file, without a cluster.")
public final class StatusCommand implements Callable<Integer> {
  /** Exit code for unreadable objects or health check expressions. */
  public static final int BAD_INPUT = CliException.BAD_INPUT;

  @Spec CommandSpec spec;

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "FILE",
      description = "Multi-document YAML or JSON file of objects; - reads standard input.")
  String file;

  @Option(
      names = "--exprs",
      paramLabel = "EXPRS",
      description = "YAML list of health check expressions in the healthCheckExprs schema.")
  Path exprs;

  @Option(names = "--no-builtin", description = "Do not use the built-in library of CEL checks.")
  boolean noBuiltin;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = "json (one object per line) or table (default).")
  String output;

  private final InputStream stdin;

  /** Reads {@code -f -} from the process's standard input. */
  public StatusCommand() {
    this(System.in);
  }

  /** Reads {@code -f -} from the given stream (tests). */
  public StatusCommand(InputStream stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!output.equals("json") && !output.equals("table")) {
      err.println("capstan status: unknown output format \"" + output + "\" (json or table)");
      return BAD_INPUT;
    }
    try {
      HealthEvaluator evaluator = HealthEvaluator.create(userExprs(), !noBuiltin);
      String source = file.equals("-") ? "<stdin>" : file;
      List<ManifestReader.Document> documents = new ManifestReader(source).read(readInput());
      List<Row> rows = new ArrayList<>(documents.size());
      for (ManifestReader.Document document : documents) {
        rows.add(new Row(ObjectRef.of(document.object()), evaluator.status(document.object())));
      }
      print(rows, out);
      return 0;
    } catch (ManifestReader.BadInputException | InvalidHealthCheckException e) {
      err.println("capstan status: " + e.getMessage());
      return BAD_INPUT;
    } catch (UncheckedIOException e) {
      err.println("capstan status: " + e.getCause().getMessage());
      return BAD_INPUT;
    } finally {
      out.flush();
      err.flush();
    }
  }

  private List<HealthCheckExpr> userExprs() {
    if (exprs == null) {
      return List.of();
    }
    return new HealthCheckExprsYaml().parse(exprs.toString(), read(exprs));
  }

  private String readInput() {
    if (!file.equals("-")) {
      return read(Path.of(file));
    }
    try {
      return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          new IOException("cannot read standard input: " + e.getMessage()));
    }
  }

  private static String read(Path path) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(new IOException("cannot read " + path + ": " + reason(e)));
    }
  }

  private static String reason(IOException e) {
    return e instanceof NoSuchFileException ? "no such file" : e.toString();
  }

  private void print(List<Row> rows, PrintWriter out) {
    if (output.equals("json")) {
      ObjectMapper json = new ObjectMapper();
      for (Row row : rows) {
        out.println(jsonLine(json, row));
      }
    } else {
      table(rows).lines().forEach(out::println);
    }
  }

  /** The human-readable form: KIND, NAMESPACE, NAME, STATUS, MESSAGE. */
  static Table table(List<Row> rows) {
    Table table = new Table(List.of("KIND", "NAMESPACE", "NAME", "STATUS", "MESSAGE"));
    for (Row row : rows) {
      table.add(
          List.of(
              row.ref().kind(),
              row.ref().namespace(),
              row.ref().name(),
              row.status().status().name(),
              row.status().message()));
    }
    return table;
  }

  private static String jsonLine(ObjectMapper json, Row row) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("apiVersion", row.ref().apiVersion());
    line.put("kind", row.ref().kind());
    line.put("namespace", row.ref().namespace());
    line.put("name", row.ref().name());
    line.put("status", row.status().status().name());
    line.put("message", row.status().message());
    line.put("reason", row.status().reason());
    DecidedBy rule = row.status().decidedBy();
    Map<String, String> decidedBy = new LinkedHashMap<>();
    decidedBy.put("source", rule.source());
    decidedBy.put("rule", rule.rule());
    line.put("decidedBy", decidedBy);
    try {
      return json.writeValueAsString(line);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a map of strings as JSON", e);
    }
  }

  /** One output line. */
  record Row(ObjectRef ref, ResourceStatus status) {}
}
