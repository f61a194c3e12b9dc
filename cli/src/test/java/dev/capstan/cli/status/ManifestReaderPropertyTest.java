package dev.capstan.cli.status;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Generated manifests, well-formed or broken in the ways hand-written YAML breaks (a missing colon,
 * a tab, an unclosed quote or bracket, an unknown alias, deep nesting), each carrying a secret in a
 * value, a key or an alias name: reading any of them ends within a time bound, fails only as bad
 * input, and no message holds the secret.
 */
class ManifestReaderPropertyTest {
  private static final Duration BOUND = Duration.ofSeconds(3);

  @Property(tries = 500, edgeCases = EdgeCasesMode.NONE)
  void readingEndsInTimeAndNeverQuotesTheSecret(
      @ForAll("manifests") String manifest, @ForAll("secrets") String secret) {
    String text = manifest.replace("SECRET", secret);
    String outcome =
        assertTimeoutPreemptively(
            BOUND,
            () -> {
              try {
                return "read " + new ManifestReader("input.yaml").read(text).size();
              } catch (ManifestReader.BadInputException e) {
                return e.getMessage();
              }
            });
    for (String form : List.of(secret, secret.toUpperCase(Locale.ROOT), secret.substring(2, 12))) {
      assertFalse(outcome.contains(form), () -> "the secret in: " + outcome + "\nfrom:\n" + text);
    }
    Statistics.collect(outcome.startsWith("read ") ? "read" : "bad input");
  }

  @Provide
  Arbitrary<String> secrets() {
    return Arbitraries.strings().withCharRange('a', 'z').ofLength(16).map(s -> "qz" + s);
  }

  @Provide
  Arbitrary<String> manifests() {
    Arbitrary<String> line =
        Arbitraries.of(
            "apiVersion: v1",
            "kind: Secret",
            "metadata: {name: s}",
            "stringData:",
            "  token: SECRET",
            "  token SECRET",
            "  SECRET: x",
            "  a: *SECRET",
            "  b: &SECRET v",
            "  c: 'SECRET",
            "  d: \"SECRET",
            "  e: [SECRET",
            "  f: {g: SECRET",
            "\tSECRET: tab",
            "  h: |",
            "    SECRET",
            "---",
            "- SECRET",
            "  i: !!binary SECRET",
            "  j: !SECRET x",
            "  ? SECRET",
            "  : v",
            "%YAML 1.1",
            "  k: SECRET: v",
            "  l: " + "[".repeat(200) + "SECRET",
            "  m: \"\\xSECRET\"",
            "...");
    Arbitrary<String> json =
        Arbitraries.of(
            "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"t\": \"SECRET\"}}",
            "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"t\": SECRET}}",
            "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"SECRET\" 1}}",
            "[{\"kind\": \"SECRET\"");
    Arbitrary<String> yaml =
        line.list().ofMinSize(1).ofMaxSize(12).map(lines -> String.join("\n", lines) + "\n");
    return Combinators.combine(Arbitraries.integers().between(0, 9), yaml, json)
        .as((pick, y, j) -> pick == 0 ? j : y);
  }
}
