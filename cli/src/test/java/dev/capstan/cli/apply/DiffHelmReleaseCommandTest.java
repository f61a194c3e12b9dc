package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.ObjectDiff;
import dev.capstan.cli.CapstanMain;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.kube.ObjectRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

class DiffHelmReleaseCommandTest {
  private static final ObjectRef CONFIG = ObjectRef.of("v1", "ConfigMap", "apps", "podinfo-config");
  private static final ObjectRef SERVICE = ObjectRef.of("v1", "Service", "apps", "podinfo");
  private static final ObjectRef DROPPED =
      ObjectRef.of("apps/v1", "Deployment", "apps", "podinfo-old");

  @Test
  void everySpellingOfTheKindParsesNameAndNamespace() {
    for (String kind : List.of("hr", "helmrelease", "helmreleases")) {
      ParseResult parsed =
          CapstanMain.commandLine().parseArgs("diff", kind, "podinfo", "-n", "apps");
      Object command = parsed.subcommand().subcommand().commandSpec().userObject();
      DiffHelmReleaseCommand diff = assertInstanceOf(DiffHelmReleaseCommand.class, command);
      assertEquals("podinfo", diff.name);
      assertEquals("apps", diff.namespace);
    }
  }

  @Test
  void withoutANamespaceTheContextsIsLeftToTheCluster() {
    CommandLine cli = CapstanMain.commandLine();
    ParseResult parsed = cli.parseArgs("diff", "hr", "podinfo");
    DiffHelmReleaseCommand diff =
        assertInstanceOf(
            DiffHelmReleaseCommand.class,
            parsed.subcommand().subcommand().commandSpec().userObject());
    assertEquals("podinfo", diff.name);
    assertEquals(null, diff.namespace);
  }

  @Test
  void diffOfADirectoryStillNeedsItsFilename() {
    StringWriter err = new StringWriter();
    CommandLine cli = CapstanMain.commandLine();
    cli.setErr(new PrintWriter(err));
    assertEquals(2, cli.execute("diff"));
    assertTrue(err.toString().contains("Missing required option: '--filename=DIR'"), err::toString);
  }

  @Test
  void aDirectoryGivenToDiffHrIsRefusedNotIgnored() {
    StringWriter err = new StringWriter();
    CommandLine cli = CapstanMain.commandLine();
    cli.setErr(new PrintWriter(err));
    assertEquals(2, cli.execute("diff", "-f", "deploy", "hr", "podinfo"));
    assertTrue(
        err.toString().contains("-f/--filename and --root are not options of diff hr"),
        err::toString);
  }

  @Test
  void aWithheldDiffEndsItsLine() {
    DiffReport report =
        new DiffReport(List.of(new ObjectDiff(CONFIG, ObjectDiff.Change.CHANGED, "- a\n+ b\n")));

    String out = printed(report, List.of(), text -> "withheld");

    assertTrue(out.contains("(would change)\nwithheld\n1 of 1 objects would change\n"), out);
  }

  @Test
  void aNameIsRequired() {
    StringWriter err = new StringWriter();
    CommandLine cli = CapstanMain.commandLine();
    cli.setErr(new PrintWriter(err));
    assertEquals(2, cli.execute("diff", "hr"));
    assertTrue(err.toString().contains("NAME"), err::toString);
  }

  @Test
  void helpSaysHooksAndTestsAreLeftOut() {
    StringWriter out = new StringWriter();
    CommandLine cli = CapstanMain.commandLine();
    cli.setOut(new PrintWriter(out));
    assertEquals(0, cli.execute("diff", "hr", "--help"));
    assertTrue(out.toString().contains("Hooks, tests"), out::toString);
  }

  @Test
  void changesCreationsAndDeletionsArePrintedWithSecretValuesMasked() throws IOException {
    DiffReport report =
        new DiffReport(
            List.of(
                new ObjectDiff(
                    CONFIG, ObjectDiff.Change.CHANGED, fixture("configmap-changed.diff")),
                new ObjectDiff(SERVICE, ObjectDiff.Change.UNCHANGED, "")));
    // as the preview gives them: the Secret's value now and the deployed one it changes
    Plaintexts secrets =
        Plaintexts.ofValues(List.of("s3cr3t-token-from-secret")).andValues(List.of("old-token"));

    String out = printed(report, List.of(DROPPED), secrets::redactLines);

    assertTrue(out.contains("~ " + CONFIG + " (would change)"), out);
    assertTrue(out.contains("+  color: green"), out);
    assertTrue(out.contains("+  token: ***"), out);
    assertTrue(out.contains("-  token: ***"), out);
    assertFalse(out.contains("s3cr3t-token-from-secret"), out);
    assertFalse(out.contains("old-token"), out);
    assertTrue(out.contains("- " + DROPPED + " (would be deleted)"), out);
    assertFalse(out.contains(SERVICE.toString()), out);
    assertTrue(out.endsWith("2 of 3 objects would change\n"), out);
  }

  @Test
  void nothingChangedSaysSo() {
    DiffReport report =
        new DiffReport(List.of(new ObjectDiff(SERVICE, ObjectDiff.Change.UNCHANGED, "")));

    assertEquals(
        "0 of 1 objects would change\n", printed(report, List.of(), UnaryOperator.identity()));
  }

  @Test
  void aRejectedObjectsMessageIsMaskedToo() {
    DiffReport report =
        new DiffReport(
            List.of(
                new ObjectDiff(
                    CONFIG, ObjectDiff.Change.FAILED, "invalid value: s3cr3t-token-from-secret")));
    Plaintexts secrets = Plaintexts.ofValues(List.of("s3cr3t-token-from-secret"));

    String out = printed(report, List.of(), secrets::redact);

    assertTrue(out.startsWith("! " + CONFIG + ": invalid value: ***"), out);
  }

  private static String printed(
      DiffReport report, List<ObjectRef> deleted, UnaryOperator<String> mask) {
    StringWriter text = new StringWriter();
    DiffCommand.print(report, deleted, mask, new PrintWriter(text));
    return text.toString().replace(System.lineSeparator(), "\n");
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = DiffHelmReleaseCommandTest.class.getResourceAsStream("/diffhr/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
