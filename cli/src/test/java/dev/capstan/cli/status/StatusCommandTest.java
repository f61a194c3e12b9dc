package dev.capstan.cli.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusCommandTest {
  @TempDir Path temp;

  private static final String TWO_DOCS =
      """
      apiVersion: v1
      kind: PersistentVolumeClaim
      metadata: {name: data, namespace: shop}
      status: {phase: Pending}
      ---
      # an empty document is skipped
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings, namespace: shop}
      """;

  @Test
  void multiDocumentYamlFromStdinPrintsOneJsonLinePerObject() {
    StatusCli.Result result = StatusCli.run(TWO_DOCS, "-f", "-", "-o", "json");
    assertEquals(0, result.exitCode(), result::err);
    String[] lines = result.out().strip().split("\n");
    assertEquals(2, lines.length);
    String expected =
        String.join(
            ",",
            "{\"apiVersion\":\"v1\"",
            "\"kind\":\"PersistentVolumeClaim\"",
            "\"namespace\":\"shop\"",
            "\"name\":\"data\"",
            "\"status\":\"InProgress\"",
            "\"message\":\"PVC is not Bound. phase: Pending\"",
            "\"reason\":\"NotBound\"",
            "\"decidedBy\":{\"source\":\"kstatus\"",
            "\"rule\":\"rule for PersistentVolumeClaim\"}}");
    assertEquals(expected, lines[0]);
    assertTrue(lines[1].contains("\"status\":\"Current\""), lines[1]);
  }

  @Test
  void theDefaultOutputIsATable() {
    StatusCli.Result result = StatusCli.run(TWO_DOCS, "-f", "-");
    assertEquals(0, result.exitCode(), result::err);
    assertEquals(
        List.of(
            "KIND                    NAMESPACE   NAME       STATUS       MESSAGE",
            "PersistentVolumeClaim   shop        data       InProgress   PVC is not Bound. phase:"
                + " Pending",
            "ConfigMap               shop        settings   Current      Resource is always ready"),
        result.out().lines().toList());
  }

  @Test
  void concatenatedJsonAndListKindsAreRead() {
    String json =
        "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":"
            + "[{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"}}]}\n"
            + "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"web\"}}";
    StatusCli.Result result = StatusCli.run(json, "-f", "-", "-o", "json");
    assertEquals(0, result.exitCode(), result::err);
    assertEquals(2, result.out().strip().split("\n").length);
  }

  @Test
  void tableIsTheDefaultOutput() {
    StatusCli.Result result = StatusCli.run(TWO_DOCS, "-f", "-");
    assertEquals(0, result.exitCode(), result::err);
    assertTrue(result.out().startsWith("KIND"), result.out());
    assertTrue(result.out().contains("PVC is not Bound"), result.out());
  }

  @Test
  void exprsFileDecidesCustomKindsAndNoBuiltinIsAccepted() throws Exception {
    Path exprs = temp.resolve("exprs.yaml");
    Files.writeString(
        exprs,
        "- apiVersion: example.com/v1\n  kind: Widget\n  current: \"status.phase == 'Done'\"\n");
    String widget =
        "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, status: {phase: Done}}";
    StatusCli.Result result =
        StatusCli.run(widget, "-f", "-", "--exprs", exprs.toString(), "--no-builtin", "-o", "json");
    assertEquals(0, result.exitCode(), result::err);
    assertTrue(result.out().contains("\"status\":\"Current\""), result.out());
    assertTrue(
        result
            .out()
            .contains("\"decidedBy\":{\"source\":\"user\",\"rule\":\"example.com/v1/Widget\"}"),
        result.out());
  }

  @Test
  void jsonNamesTheRuleThatDecided() {
    String input =
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata: {name: tls}
        status:
          conditions: [{type: Ready, status: "True"}]
        ---
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: w}
        status: {phase: Provisioning}
        ---
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: plain}
        """;
    StatusCli.Result result = StatusCli.run(input, "-f", "-", "-o", "json");
    assertEquals(0, result.exitCode(), result::err);
    String[] lines = result.out().strip().split("\n");
    assertTrue(
        lines[0].contains(
            "\"decidedBy\":{\"source\":\"builtin\",\"rule\":\"cert-manager.io/*/Certificate\"}"),
        lines[0]);
    assertTrue(lines[1].contains("\"status\":\"InProgress\""), lines[1]);
    assertTrue(
        lines[1].contains("\"decidedBy\":{\"source\":\"generic\",\"rule\":\"status vocabulary\"}"),
        lines[1]);
    assertTrue(
        lines[2].contains("\"decidedBy\":{\"source\":\"generic\",\"rule\":\"kstatus default\"}"),
        lines[2]);
  }

  @Test
  void badInputExitsTwoNamingTheDocumentWithoutAStackTrace() {
    assertBadInput(
        "apiVersion: v1\nkind: ConfigMap\n---\n- just\n- a list\n",
        "document 2 (line 4): expected a Kubernetes object, found a list");
    assertBadInput("apiVersion: v1\nmetadata: {name: x}\n", "document 1 (line 1): missing kind");
    assertBadInput("kind: Pod\n", "document 1 (line 1): missing apiVersion");
    assertBadInput("apiVersion: v1\nkind: Pod\n---\napiVersion: [\n", "document 2");
    assertBadInput("just a string\n", "expected a Kubernetes object, found a string");
  }

  @Test
  void wrongTypesInStatusAreUnknownNotAnError() {
    StatusCli.Result result =
        StatusCli.run(
            "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, status: {replicas:"
                + " three}}",
            "-f",
            "-",
            "-o",
            "json");
    assertEquals(0, result.exitCode(), result::err);
    assertTrue(result.out().contains("\"status\":\"Unknown\""), result.out());
    assertTrue(result.out().contains("status.replicas: expected an integer"), result.out());
  }

  @Test
  void aMalformedDocumentIsPlacedWithoutQuotingItsText() {
    String secret =
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n"
            + "  token abc-TOPSECRET-TOKEN\n  other: x\n";
    assertBadInput(
        secret,
        "document 1 (line 6), column 8: not valid YAML: mapping values are not allowed here");
    String json =
        "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"t\": \"TOPSECRET\" \"u\"}}";
    assertBadInput(json, "not valid YAML");
    for (String input : List.of(secret, json, "data: 'TOPSECRET\n")) {
      StatusCli.Result result = StatusCli.run(input, "-f", "-", "-o", "json");
      assertEquals(StatusCommand.BAD_INPUT, result.exitCode(), input);
      assertFalse(result.err().contains("TOPSECRET"), result.err());
    }
  }

  @Test
  void badExpressionsAndMissingFilesExitTwo() throws Exception {
    Path exprs = temp.resolve("bad.yaml");
    Files.writeString(exprs, "- {apiVersion: example.com/v1, kind: Widget, current: 'status.'}\n");
    StatusCli.Result bad = StatusCli.run("", "-f", "-", "--exprs", exprs.toString());
    assertEquals(StatusCommand.BAD_INPUT, bad.exitCode());
    assertTrue(
        bad.err().contains("example.com/v1/Widget") && bad.err().contains("<input>:1:8"),
        bad.err());
    StatusCli.Result missing = StatusCli.run("", "-f", temp.resolve("nope.yaml").toString());
    assertEquals(StatusCommand.BAD_INPUT, missing.exitCode());
    assertTrue(missing.err().contains("no such file"), missing.err());
  }

  @Test
  void exprsFileWithAnExpressionOverTheLengthLimitExitsTwoWithoutQuotingIt() throws Exception {
    Path exprs = temp.resolve("long.yaml");
    String expression = "'" + "a".repeat(10_000) + "' != ''";
    Files.writeString(
        exprs, "- {apiVersion: example.com/v1, kind: Widget, current: \"" + expression + "\"}\n");
    StatusCli.Result result = StatusCli.run("", "-f", "-", "--exprs", exprs.toString());
    assertEquals(StatusCommand.BAD_INPUT, result.exitCode());
    assertTrue(result.err().contains("example.com/v1/Widget"), result.err());
    assertTrue(
        result.err().contains("10008 characters long, more than the limit of 4096"), result.err());
    assertFalse(result.err().contains("a".repeat(100)), "the expression is not echoed");
  }

  private static void assertBadInput(String input, String expected) {
    StatusCli.Result result = StatusCli.run(input, "-f", "-", "-o", "json");
    assertEquals(StatusCommand.BAD_INPUT, result.exitCode(), () -> "exit code for " + input);
    assertTrue(result.err().contains(expected), result::err);
    assertFalse(result.err().contains("\tat "), result::err);
    assertEquals("", result.out());
  }
}
