package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.git.transport.RemoteUrl;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.git.transport.UrlScheme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * User information never survives redaction, whatever it holds: URLs with generated user names and
 * passwords ({@code @}, {@code /}, {@code :}, spaces, quotes, {@code %} encodings, even {@code
 * ://}) in every URL form. Each user name and password carries marker tokens (which the generated
 * characters cannot form) at its start, middle and end; no marker may appear in any redacted
 * output, nor in any message that parsing or fetching such a URL produces.
 */
class RedactionPropertyTest {

  private static final List<String> MARKERS = List.of("Q1K", "Q2K", "Q3K", "Q4K", "Q5K", "Q6K");

  /** What a user may paste into user information, raw or half-encoded. */
  private static final List<String> FRAGMENTS =
      List.of(
          "a",
          "b",
          "7",
          "@",
          "/",
          ":",
          " ",
          "  ",
          "%",
          "%40",
          "%2F",
          "%20",
          "%3A",
          "%zz",
          "-",
          ".",
          "_",
          "~",
          "!",
          "$",
          "&",
          "'",
          "\"",
          "(",
          ")",
          "*",
          "+",
          ",",
          ";",
          "=",
          "?",
          "#",
          "[",
          "]",
          "://",
          "@h/",
          "@127.0.0.1:",
          "é",
          "\\");

  private static final List<String> HOSTS =
      List.of("git.example.com", "127.0.0.1:8443", "[::1]", "[::1]:2222", "h_st.local");
  private static final Duration BOUND = Duration.ofSeconds(2);

  private static Path store;

  record SecretUrl(String url, boolean scpLike, String secret) {
    @Override
    public String toString() {
      return url;
    }
  }

  @BeforeContainer
  static void createStore() throws Exception {
    store = Files.createTempDirectory("redaction-property");
  }

  @AfterContainer
  static void deleteStore() throws Exception {
    try (var paths = Files.walk(store)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Property(tries = 1500)
  void userInfoNeverSurvivesRedactionOfTheUrl(@ForAll("urls") SecretUrl u) {
    assertNoMarker(u, "scrubUrl", () -> Redaction.scrubUrl(u.url()));
    assertNoMarker(u, "scrub", () -> Redaction.scrub(u.url(), Redaction.userinfoOf(u.url())));
  }

  @Property(tries = 1500)
  void userInfoNeverSurvivesInFreeText(@ForAll("urls") SecretUrl u) {
    // Where an scp-like user part starts cannot be told in free text once it holds a space or a
    // quote; Capstan never writes a raw URL into a message (it writes RemoteUrl.display()).
    boolean delimited = !u.secret().matches("(?s).*[\\s'\"].*");
    if (!u.scpLike() || delimited) {
      assertNoMarker(
          u,
          "scrubUrls",
          () ->
              Redaction.scrubUrls(
                  "failed to fetch branch 'main' from '"
                      + u.url()
                      + "': remote hung up\nrevision main@sha1:0a1b"));
    }
  }

  @Property(tries = 1500)
  void userInfoNeverSurvivesInRemoteUrlMessages(@ForAll("urls") SecretUrl u) {
    for (var policy : List.of(UrlScheme.gitRepository(), UrlScheme.all())) {
      assertNoMarker(
          u,
          "RemoteUrl.parse",
          () -> {
            try {
              return RemoteUrl.parse(u.url(), policy).display();
            } catch (SourceException e) {
              return e.getMessage();
            }
          });
    }
  }

  /**
   * The whole fetch path, JGit's own error messages included; nothing listens on port 1. No {@code
   * /} in these secrets: it would end the authority early and send JGit to look up a host named by
   * the secret.
   */
  @Property(tries = 60)
  void userInfoNeverSurvivesInFetchFailures(@ForAll("unreachable") SecretUrl u) {
    GitSource source = new GitSource(GitSourceOptions.at(store).withRetry(RetryPolicy.none()));
    FetchRequest request =
        FetchRequest.of("ns/app", u.url(), GitRef.branch("main"))
            .withTimeout(Duration.ofSeconds(5));
    FetchResult result = source.fetch(request);
    String message = result instanceof FetchResult.Failed f ? f.message() : "fetched?! " + result;
    assertNoMarker(u, "fetch", () -> message + "\n" + request);
  }

  @Provide
  Arbitrary<SecretUrl> urls() {
    Arbitrary<String> scheme =
        Arbitraries.of(
            "https://", "http://", "ssh://", "git://", "file://", "ftp://", "HTTPS://", "");
    Arbitrary<String> path =
        Arbitraries.of("/org/repo.git", "/r", "/a@b/r", ":org/repo.git", "", "/");
    return Combinators.combine(
            scheme, secret(0, FRAGMENTS), secret(3, FRAGMENTS), Arbitraries.of(HOSTS), path)
        .as(
            (s, user, password, host, p) -> {
              String userinfo = user + ":" + password;
              String hostPart = s.isEmpty() ? host.replaceAll(":[0-9]+$", "") : host;
              String rest = s.isEmpty() && !p.startsWith(":") ? ":" + p : p;
              return new SecretUrl(s + userinfo + "@" + hostPart + rest, s.isEmpty(), userinfo);
            });
  }

  @Provide
  Arbitrary<SecretUrl> unreachable() {
    Arbitrary<String> scheme = Arbitraries.of("https://", "http://", "ssh://");
    List<String> fragments =
        FRAGMENTS.stream()
            .filter(
                f -> !f.contains("/") && !f.contains("?") && !f.contains("#") && !f.contains("\\"))
            .toList();
    return Combinators.combine(scheme, secret(0, fragments), secret(3, fragments))
        .as(
            (s, user, password) ->
                new SecretUrl(
                    s + user + ":" + password + "@127.0.0.1:1/org/repo.git",
                    false,
                    user + ":" + password));
  }

  /** Markers {@code first} and {@code first+2} around and between two generated parts. */
  private static Arbitrary<String> secret(int first, List<String> fragments) {
    Arbitrary<String> part =
        Arbitraries.of(fragments).list().ofMaxSize(6).map(l -> String.join("", l));
    return Combinators.combine(part, part)
        .as((a, b) -> MARKERS.get(first) + a + MARKERS.get(first + 1) + b + MARKERS.get(first + 2));
  }

  private static void assertNoMarker(SecretUrl u, String what, Supplier<String> redacted) {
    String out = assertTimeoutPreemptively(BOUND, redacted::get, what + " took too long");
    List<String> leaked = new ArrayList<>();
    for (String marker : MARKERS) {
      if (out != null && out.contains(marker)) {
        leaked.add(marker);
      }
    }
    if (!leaked.isEmpty()) {
      throw new AssertionError(what + " of " + u.url() + " leaked " + leaked + ": " + out);
    }
  }
}
