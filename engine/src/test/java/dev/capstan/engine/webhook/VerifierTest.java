package dev.capstan.engine.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;

class VerifierTest {
  private static final byte[] SECRET =
      "It's a Secret to Everybody".getBytes(StandardCharsets.UTF_8);
  private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.UTF_8);

  /** GitHub's published example signature for SECRET and BODY. */
  private static final String GITHUB_EXAMPLE =
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  private static HttpFields headers(String... pairs) {
    HttpFields.Mutable h = HttpFields.build();
    for (int i = 0; i < pairs.length; i += 2) {
      h.add(pairs[i], pairs[i + 1]);
    }
    return h;
  }

  private static Verdict github(HttpFields h, byte[] body) {
    return Verifier.verify(
        ReceiverType.GITHUB, ReceiverType.GITHUB.defaultEvents(), h, body, SECRET);
  }

  private static void assertRejected(Verdict verdict, int status, String reason) {
    assertTrue(verdict instanceof Verdict.Reject, () -> "expected a rejection, got " + verdict);
    assertEquals(status, ((Verdict.Reject) verdict).status());
    assertEquals(reason, ((Verdict.Reject) verdict).reason());
  }

  @Test
  void githubPublishedExampleIsAcceptedAsAPush() {
    assertEquals(
        new Verdict.Act("push"),
        github(headers("X-Hub-Signature-256", GITHUB_EXAMPLE, "X-GitHub-Event", "push"), BODY));
    assertEquals(
        new Verdict.Act("push"),
        github(
            headers(
                "x-hub-signature-256",
                GITHUB_EXAMPLE.toUpperCase().replace("SHA256=", "sha256="),
                "x-github-event",
                "push"),
            BODY),
        "header names are case-insensitive and hex may be upper-case");
  }

  @Test
  void githubPingAndOtherEventsAreIgnoredOnceVerified() {
    assertEquals(
        new Verdict.Ignore("ping"),
        github(headers("X-Hub-Signature-256", GITHUB_EXAMPLE, "X-GitHub-Event", "ping"), BODY));
    assertEquals(
        new Verdict.Ignore("issues"),
        github(headers("X-Hub-Signature-256", GITHUB_EXAMPLE, "X-GitHub-Event", "issues"), BODY));
  }

  @Test
  void githubUnsignedMalformedOrWrongSignaturesAreRejected() {
    assertRejected(github(headers("X-GitHub-Event", "push"), BODY), 401, "missing_signature");
    assertRejected(
        github(headers("X-Hub-Signature-256", "sha1=abcd", "X-GitHub-Event", "push"), BODY),
        401,
        "malformed_signature");
    assertRejected(
        github(headers("X-Hub-Signature-256", "sha256=xyz", "X-GitHub-Event", "push"), BODY),
        401,
        "malformed_signature");
    assertRejected(
        github(
            headers("X-Hub-Signature-256", GITHUB_EXAMPLE, "X-GitHub-Event", "push"),
            "Hello, World?".getBytes(StandardCharsets.UTF_8)),
        403,
        "bad_signature");
    assertRejected(
        Verifier.verify(
            ReceiverType.GITHUB,
            List.of("push"),
            headers("X-Hub-Signature-256", GITHUB_EXAMPLE, "X-GitHub-Event", "push"),
            BODY,
            "another secret".getBytes(StandardCharsets.UTF_8)),
        403,
        "bad_signature");
  }

  @Test
  void gitlabTokenIsComparedAndEventsFiltered() {
    List<String> events = ReceiverType.GITLAB.defaultEvents();
    assertEquals(
        new Verdict.Act("Push Hook"),
        Verifier.verify(
            ReceiverType.GITLAB,
            events,
            headers(
                "X-Gitlab-Token",
                new String(SECRET, StandardCharsets.UTF_8),
                "X-Gitlab-Event",
                "Push Hook"),
            BODY,
            SECRET));
    assertEquals(
        new Verdict.Act("Tag Push Hook"),
        Verifier.verify(
            ReceiverType.GITLAB,
            events,
            headers(
                "X-Gitlab-Token",
                new String(SECRET, StandardCharsets.UTF_8),
                "X-Gitlab-Event",
                "Tag Push Hook"),
            BODY,
            SECRET));
    assertEquals(
        new Verdict.Ignore("Issue Hook"),
        Verifier.verify(
            ReceiverType.GITLAB,
            events,
            headers(
                "X-Gitlab-Token",
                new String(SECRET, StandardCharsets.UTF_8),
                "X-Gitlab-Event",
                "Issue Hook"),
            BODY,
            SECRET));
    assertRejected(
        Verifier.verify(
            ReceiverType.GITLAB, events, headers("X-Gitlab-Event", "Push Hook"), BODY, SECRET),
        401,
        "missing_signature");
    assertRejected(
        Verifier.verify(
            ReceiverType.GITLAB,
            events,
            headers("X-Gitlab-Token", "It's a Secret to Everybodx", "X-Gitlab-Event", "Push Hook"),
            BODY,
            SECRET),
        403,
        "bad_signature");
    assertRejected(
        Verifier.verify(
            ReceiverType.GITLAB,
            events,
            headers("X-Gitlab-Token", "It's a Secret", "X-Gitlab-Event", "Push Hook"),
            BODY,
            SECRET),
        403,
        "bad_signature");
  }

  @Test
  void genericAcceptsSha256AndSha512Hmacs() {
    String sha256 = HexFormat.of().formatHex(Signatures.hmac("HmacSHA256", SECRET, BODY));
    String sha512 = HexFormat.of().formatHex(Signatures.hmac("HmacSHA512", SECRET, BODY));
    assertEquals(GITHUB_EXAMPLE, "sha256=" + sha256, "same HMAC as GitHub's example");
    assertEquals(
        new Verdict.Act("generic"),
        Verifier.verify(
            ReceiverType.GENERIC,
            List.of(),
            headers("X-Signature", "sha256=" + sha256),
            BODY,
            SECRET));
    assertEquals(
        new Verdict.Act("generic"),
        Verifier.verify(
            ReceiverType.GENERIC,
            List.of(),
            headers("X-Signature", "sha512=" + sha512),
            BODY,
            SECRET));
    assertRejected(
        Verifier.verify(ReceiverType.GENERIC, List.of(), headers(), BODY, SECRET),
        401,
        "missing_signature");
    assertRejected(
        Verifier.verify(
            ReceiverType.GENERIC, List.of(), headers("X-Signature", "md5=00"), BODY, SECRET),
        401,
        "malformed_signature");
    assertRejected(
        Verifier.verify(
            ReceiverType.GENERIC,
            List.of(),
            headers("X-Signature", "sha512=" + sha256),
            BODY,
            SECRET),
        401,
        "malformed_signature");
    String flipped = (sha256.charAt(0) == '0' ? "1" : "0") + sha256.substring(1);
    assertRejected(
        Verifier.verify(
            ReceiverType.GENERIC,
            List.of(),
            headers("X-Signature", "sha256=" + flipped),
            BODY,
            SECRET),
        403,
        "bad_signature");
  }

  @Test
  void tokenComparisonDoesNotDependOnLength() {
    assertTrue(Signatures.constantTimeTokenEquals(SECRET, SECRET.clone()));
    assertFalse(Signatures.constantTimeTokenEquals(new byte[0], SECRET));
    assertFalse(
        Signatures.constantTimeTokenEquals(
            "x".repeat(1000).getBytes(StandardCharsets.UTF_8), SECRET));
  }
}
