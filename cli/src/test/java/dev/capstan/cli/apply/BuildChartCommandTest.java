package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.testing.RepoRoot;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstan build chart} run in-process (BuildChartFidelityIT compares it with {@code helm
 * template} byte for byte).
 */
class BuildChartCommandTest {
  private static final Path CHARTS = RepoRoot.find().resolve("kustomize-worker/go/testdata/charts");

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = new CommandLine(new BuildChartCommand(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  private String printed() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void printsTheManifestThenTheHooks(@TempDir Path dir) throws Exception {
    Path values = Files.writeString(dir.resolve("values.yaml"), "replicas: 7\n");
    int exit =
        run(
            CHARTS.resolve("app").toString(),
            "--release-name",
            "web",
            "-n",
            "shop",
            "-f",
            values.toString(),
            "--set",
            "image.tag=2.0",
            "--skip-tests");
    assertEquals(0, exit, err.toString());
    String text = printed();
    assertTrue(text.startsWith("---\n# Source: app/"), text);
    assertTrue(text.contains("replicas: 7"), text);
    assertTrue(text.contains("namespace: shop"), text);
    assertTrue(text.contains("registry.invalid/app:2.0"), text);
    assertTrue(text.contains("# Source: app/templates/hooks.yaml"), text);
    assertTrue(!text.contains("test-connection"), "test hooks skipped");
  }

  @Test
  void theDefaultsAreHelmTemplates() {
    assertEquals(0, run(CHARTS.resolve("needs").toString(), "--set", "password=x"), err.toString());
    assertTrue(printed().contains("name: release-name\n"), printed());
  }

  @Test
  void aTemplateFailureSaysItsStageAndHelmsMessage() {
    assertEquals(CliException.BAD_INPUT, run(CHARTS.resolve("needs").toString()));
    assertTrue(
        err.toString().startsWith("capstan build chart: render: execution error at (needs/"),
        err.toString());
    assertTrue(err.toString().contains("password is required"), err.toString());
    assertEquals("", printed());
  }

  @Test
  void badInputIsRefusedInOneLine(@TempDir Path dir) throws Exception {
    assertEquals(CliException.BAD_INPUT, run(dir.resolve("none").toString()));
    assertTrue(err.toString().startsWith("capstan build chart: no chart at "), err.toString());
    Path latin1 = Files.write(dir.resolve("v.yaml"), new byte[] {'a', ':', ' ', (byte) 0xe9});
    assertEquals(
        CliException.BAD_INPUT, run(CHARTS.resolve("app").toString(), "-f", latin1.toString()));
    assertTrue(err.toString().contains("is not UTF-8 text"), err.toString());
    assertEquals(CliException.BAD_INPUT, run(CHARTS.resolve("app").toString(), "--set", "a[x]=1"));
    assertTrue(err.toString().contains("values: failed parsing --set data"), err.toString());
  }

  /** {@code capstan build chart} is a subcommand of {@code build}, which needs no -f for it. */
  @Test
  void isASubcommandOfBuild() {
    StringWriter buildErr = new StringWriter();
    CommandLine cli = new CommandLine(new BuildCommand()).setErr(new PrintWriter(buildErr));
    CommandLine.ParseResult parsed =
        cli.parseArgs("chart", CHARTS.resolve("app").toString(), "--set", "a=b");
    assertTrue(parsed.hasSubcommand(), "chart is a subcommand");
    assertEquals(2, cli.execute(), "build itself still needs -f");
    assertTrue(
        buildErr.toString().contains("Missing required option: '--filename=DIR'"),
        buildErr.toString());
  }
}
