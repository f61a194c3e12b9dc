package dev.capstan.cli.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code capstan fetch} against a real HTTP Git server with basic auth. */
class FetchCommandIT {

  @TempDir Path tmp;
  TestRepo repo;
  RevCommit head;
  HttpGitServer server;

  record Run(int exit, String out, String err) {
    List<String> outLines() {
      return out.lines().toList();
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    head =
        repo.commit(
            "first",
            Map.of(
                "deploy.yaml",
                "kind: ConfigMap\n",
                ".sourceignore",
                "docs/\n",
                "docs/readme.txt",
                "r\n"));
    repo.tag("v1.2.3", true);
    server = HttpGitServer.basicAuth(tmp.resolve("served"), "bob", "pa55word");
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
    repo.close();
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new FetchCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  private Path secretManifest() throws Exception {
    Path f = tmp.resolve("secret.yaml");
    Files.writeString(
        f,
        """
        apiVersion: v1
        kind: Secret
        metadata:
          name: git-auth
        data:
          username: Ym9i
        stringData:
          password: pa55word
        """);
    return f;
  }

  @Test
  void writesFilteredTreeAndPrintsRevisionLast() throws Exception {
    Path dir = tmp.resolve("out");
    Run r =
        run(
            "--url",
            server.url("app"),
            "--branch",
            "main",
            "--allow-insecure-http",
            "--secret-file",
            secretManifest().toString(),
            "--dir",
            dir.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("main@sha1:" + head.name(), r.outLines().get(r.outLines().size() - 1));
    assertEquals("kind: ConfigMap\n", Files.readString(dir.resolve("deploy.yaml")));
    assertFalse(Files.exists(dir.resolve("docs")));
  }

  @Test
  void keyValueSecretFileAndSemver() throws Exception {
    Path secret = tmp.resolve("secret.env");
    Files.writeString(secret, "# credentials\nusername=bob\npassword=pa55word\n");
    Path dir = tmp.resolve("out2");
    Run r =
        run(
            "--url",
            server.url("app"),
            "--semver",
            ">=1.0.0",
            "--allow-insecure-http",
            "--secret-file",
            secret.toString(),
            "--dir",
            dir.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("v1.2.3@sha1:" + head.name(), r.outLines().get(r.outLines().size() - 1));
  }

  @Test
  void credentialsOverPlainHttpAreRefusedUnlessAllowed() throws Exception {
    int before = server.requests();
    Run r =
        run(
            "--url",
            server.url("app"),
            "--secret-file",
            secretManifest().toString(),
            "--dir",
            tmp.resolve("refused").toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.err().contains("credentials are sent only over https"), r.err());
    assertTrue(r.err().contains("(URLInvalid)"), r.err());
    assertFalse(r.err().contains("pa55word"), r.err());
    assertEquals(before, server.requests(), "nothing was sent");
  }

  @Test
  void localRepositoriesCanBeFetchedFromTheUsersOwnShell() {
    Path dir = tmp.resolve("local");
    Run r = run("--url", repo.fileUrl(), "--branch", "main", "--dir", dir.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("main@sha1:" + head.name(), r.outLines().get(r.outLines().size() - 1));
  }

  @Test
  void failuresExitNonZeroWithAClearMessageAndNoStackTrace() throws Exception {
    Path secret = tmp.resolve("bad.env");
    Files.writeString(secret, "username=bob\npassword=not-the-password\n");
    Run auth =
        run(
            "--url",
            server.url("app"),
            "--secret-file",
            secret.toString(),
            "--allow-insecure-http",
            "--dir",
            tmp.resolve("o1").toString());
    assertEquals(1, auth.exit());
    assertTrue(auth.err().contains("AuthenticationFailed"), auth.err());
    assertFalse(auth.err().contains("not-the-password"), auth.err());
    assertFalse(auth.err().contains("\tat "), auth.err());
    assertEquals("", auth.out());

    Run semver =
        run(
            "--url",
            server.url("app"),
            "--semver",
            "~>!!",
            "--allow-insecure-http",
            "--secret-file",
            secretManifest().toString(),
            "--dir",
            tmp.resolve("o2").toString());
    assertEquals(1, semver.exit());
    assertTrue(semver.err().contains("invalid semver range '~>!!'"), semver.err());

    Run two =
        run(
            "--url",
            server.url("app"),
            "--tag",
            "a",
            "--branch",
            "b",
            "--dir",
            tmp.resolve("o3").toString());
    assertEquals(2, two.exit());
    assertTrue(two.err().contains("at most one of"), two.err());

    Path notEmpty = Files.createDirectories(tmp.resolve("full"));
    Files.writeString(notEmpty.resolve("x"), "x");
    Run full = run("--url", server.url("app"), "--dir", notEmpty.toString());
    assertEquals(2, full.exit());
    assertTrue(full.err().contains("is not empty"), full.err());

    Path badSecret = tmp.resolve("bad.yaml");
    Files.writeString(badSecret, "kind: Secret\ndata:\n  password: '%%%'\n");
    Run b64 =
        run(
            "--url",
            server.url("app"),
            "--secret-file",
            badSecret.toString(),
            "--dir",
            tmp.resolve("o4").toString());
    assertEquals(2, b64.exit());
    assertTrue(b64.err().contains("entry 'password' is not Base64"), b64.err());
    assertFalse(b64.err().contains("%%%"));
  }
}
