package dev.capstan.applier.kustomize;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Hostile build input, generated: postBuild substitution expressions and patch targets of every
 * shape. Each build ends within its bound, and a failure names no secret: neither a substituted
 * value that came from a Secret nor secret text written in the manifests.
 */
class BuildPropertyTest {
  private static final String VARIABLE_SECRET = "vs3cr3t-kx9qw";
  private static final String WRITTEN_SECRET = "ws3cr3t-pz4mv";
  private static final Duration BOUND = Duration.ofSeconds(60);

  private static ManifestBuilder builder;

  @BeforeContainer
  static void start() {
    builder =
        new ManifestBuilder(
            BuildLimits.oneShot().withTimeout(Duration.ofSeconds(20)), BuildFixture.tempSandbox());
  }

  @AfterContainer
  static void stop() {
    builder.close();
  }

  @Property(tries = 25)
  void anySubstitutionEndsInTimeAndNeverNamesASecret(@ForAll("substitutions") String expression)
      throws IOException {
    String manifest =
        """
        apiVersion: v1
        kind: Secret
        metadata: {name: s}
        stringData:
          written: %s
          value: "%s"
        """
            .formatted(WRITTEN_SECRET, expression.replace("\\", "\\\\").replace("\"", "\\\""));
    BuildOptions options =
        BuildOptions.none()
            .withPostBuild(
                new PostBuildVariables(
                    Map.of("PLAIN", "p"), List.of(Map.of("TOKEN", VARIABLE_SECRET)), false));
    assertNoSecretInAnyFailure(Map.of("app/secret.yaml", manifest), options);
  }

  @Property(tries = 25)
  void anyPatchTargetEndsInTimeAndNeverNamesASecret(
      @ForAll("patterns") String name,
      @ForAll("patterns") String namespace,
      @ForAll("selectors") String labels,
      @ForAll("selectors") String annotations)
      throws IOException {
    String kustomization =
        """
        resources: [cm.yaml]
        patches:
        - target: {kind: ConfigMap, name: %s, namespace: %s, labelSelector: %s, annotationSelector: %s}
          patch: |
            - {op: add, path: /data/patched, value: "yes"}
        """
            .formatted(quoted(name), quoted(namespace), quoted(labels), quoted(annotations));
    String configMap =
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: %s, namespace: team, labels: {app: web}, annotations: {note: %s}}
        data: {token: %s}
        """
            .formatted("a".repeat(42) + "b", WRITTEN_SECRET, WRITTEN_SECRET);
    assertNoSecretInAnyFailure(
        Map.of("app/kustomization.yaml", kustomization, "app/cm.yaml", configMap),
        BuildOptions.none());
  }

  private static void assertNoSecretInAnyFailure(Map<String, String> files, BuildOptions options)
      throws IOException {
    Path dir = Files.createTempDirectory("build-property");
    try {
      new BuildFixture(dir).files(files);
      BuildResult result =
          assertTimeoutPreemptively(BOUND, () -> builder.build(dir, "app", options));
      if (result instanceof BuildResult.Failed failed) {
        String message = failed.error().message();
        assertFalse(message.contains(VARIABLE_SECRET) || message.contains(WRITTEN_SECRET), message);
        assertFalse(message.contains("goroutine") || message.contains("\tat "), message);
      }
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Provide
  Arbitrary<String> substitutions() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "${",
            "}",
            "$",
            "$$",
            "{",
            "TOKEN",
            "PLAIN",
            "MISSING",
            "9BAD",
            ":=",
            ":-",
            "=",
            "-",
            ":+",
            "+",
            "x",
            " ",
            "'",
            "\"",
            "\\",
            "\n",
            WRITTEN_SECRET,
            "${TOKEN}",
            "${TOKEN",
            "${PLAIN:=${TOKEN}}",
            "${MISSING:-" + WRITTEN_SECRET + "}",
            "${" + WRITTEN_SECRET + "}");
    return piece.list().ofMinSize(1).ofMaxSize(40).map(parts -> String.join("", parts));
  }

  @Provide
  Arbitrary<String> patterns() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "a",
            "b",
            "(",
            ")",
            "*",
            "+",
            "?",
            ".",
            "|",
            "[",
            "]",
            "{20}",
            "{",
            "}",
            "\\",
            "^",
            "$",
            ".*",
            "(.*a)",
            "(a|aa)",
            "team",
            "web",
            WRITTEN_SECRET);
    return piece.list().ofMinSize(0).ofMaxSize(16).map(parts -> String.join("", parts));
  }

  @Provide
  Arbitrary<String> selectors() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "app",
            "=",
            "==",
            "!=",
            "web",
            ",",
            " in ",
            "(",
            ")",
            "!",
            "note",
            " notin ",
            "x",
            "-",
            ".",
            "/",
            WRITTEN_SECRET);
    return piece.list().ofMinSize(0).ofMaxSize(10).map(parts -> String.join("", parts));
  }
}
