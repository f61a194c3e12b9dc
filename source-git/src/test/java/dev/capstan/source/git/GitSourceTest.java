package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.git.transport.UrlScheme;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fetch pipeline end to end against local repositories (file:// URLs). */
class GitSourceTest {

  @TempDir Path tmp;
  TestRepo repo;
  GitSource source;

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("remote"));
    repo.commit("first", Map.of("app/deploy.yaml", "kind: Deployment\n", "README.md", "hi\n"));
    source =
        new GitSource(
            GitSourceOptions.at(tmp.resolve("store"))
                .withAllowedSchemes(UrlScheme.all())
                .withRetry(new RetryPolicy(2, Duration.ofMillis(1), 2.0)));
  }

  @AfterEach
  void tearDown() {
    repo.close();
  }

  private FetchResult fetch(GitRef ref) {
    return source.fetch(FetchRequest.of("ns/app", repo.fileUrl(), ref));
  }

  private static StoredArtifact fetched(FetchResult result) {
    if (result instanceof FetchResult.Failed f) {
      throw new AssertionError("fetch failed: " + f.reason() + ": " + f.message());
    }
    return assertInstanceOf(FetchResult.Fetched.class, result).current();
  }

  @Test
  void defaultOptionsRefuseLocalRepositoriesBeforeReadingThem() throws Exception {
    GitSource remoteOnly = new GitSource(GitSourceOptions.at(tmp.resolve("remote-only")));
    for (String url :
        new String[] {repo.fileUrl(), repo.dir().toString(), repo.gitDir().toString()}) {
      FetchResult.Failed failed =
          assertInstanceOf(
              FetchResult.Failed.class,
              remoteOnly.fetch(FetchRequest.of("ns/app", url, GitRef.branch("main"))),
              url);
      assertEquals(FailureReason.INVALID_URL, failed.reason(), failed.message());
      assertTrue(
          failed.message().contains("not allowed here (use https://, http://, ssh://)"),
          failed.message());
      assertTrue(failed.lastGood().isEmpty());
    }
    assertFalse(Files.exists(tmp.resolve("remote-only/sources")), "no repository cache was made");
  }

  @Test
  void fetchesBranchIntoContentAddressedDirectory() throws Exception {
    RevCommit head = repo.git().log().call().iterator().next();
    StoredArtifact a = fetched(fetch(GitRef.branch("main")));
    assertEquals("main@sha1:" + head.name(), a.revision());
    assertTrue(a.digest().matches("sha256:[0-9a-f]{64}"), a.digest());
    assertEquals(a.digest().substring(7), a.path().getFileName().toString());
    assertEquals("kind: Deployment\n", Files.readString(a.path().resolve("app/deploy.yaml")));
    assertFalse(Files.exists(a.path().resolve(".git")));
  }

  @Test
  void storedTreesAreFoundByDigestAndNothingElseNamesADirectory() throws Exception {
    StoredArtifact a = fetched(fetch(GitRef.branch("main")));
    assertEquals(a.path(), source.storedTree(a.digest()).orElseThrow());
    Files.createDirectories(tmp.resolve("store/artifacts/elsewhere"));
    for (String digest :
        new String[] {
          "sha256:" + "0".repeat(64),
          "sha256:../elsewhere",
          "sha256:../../store",
          a.digest().toUpperCase(Locale.ROOT),
          a.digest() + "/..",
          "sha1:" + a.digest().substring(7),
          "",
          "sha256:"
        }) {
      assertTrue(source.storedTree(digest).isEmpty(), digest);
    }
    assertTrue(source.storedTree(null).isEmpty());
  }

  @Test
  void unchangedRefIsNotFetchedAgainAndNewCommitIs() throws Exception {
    StoredArtifact first = fetched(fetch(GitRef.branch("main")));
    FetchResult again = fetch(GitRef.branch("main"));
    assertEquals(first, assertInstanceOf(FetchResult.Unchanged.class, again).current());

    RevCommit second = repo.commit("second", Map.of("app/deploy.yaml", "kind: Service\n"));
    StoredArtifact next = fetched(fetch(GitRef.branch("main")));
    assertEquals("main@sha1:" + second.name(), next.revision());
    assertNotEquals(first.digest(), next.digest());
    assertTrue(Files.isDirectory(first.path()), "the previous artifact is kept for readers");

    repo.commit("third", Map.of("README.md", "changed\n"));
    StoredArtifact third = fetched(fetch(GitRef.branch("main")));
    assertFalse(Files.exists(first.path()), "artifacts older than the previous one are collected");
    assertTrue(Files.isDirectory(next.path()));
    assertTrue(Files.isDirectory(third.path()));
  }

  @Test
  void aCacheThatLostObjectsItsRefsNameIsFetchedAfreshNotFailedForever() throws Exception {
    fetched(fetch(GitRef.branch("main")));
    // what a fetch cut short by a full disk leaves: refs and shallow roots whose objects are gone
    try (Stream<Path> files = Files.walk(tmp.resolve("store"))) {
      for (Path pack : files.filter(p -> p.toString().contains("/git/objects/pack/")).toList()) {
        Files.delete(pack);
      }
    }

    RevCommit second = repo.commit("second", Map.of("app/deploy.yaml", "kind: Service\n"));
    assertEquals("main@sha1:" + second.name(), fetched(fetch(GitRef.branch("main"))).revision());
  }

  @Test
  void theFetchedCommitsAuthorAndSubjectAreReadFromTheCache() throws Exception {
    RevCommit head =
        repo.commit(
            "Bump <b>app</b> to 2\n\nbody text", Map.of("app/deploy.yaml", "kind: Service\n"));
    assertTrue(source.commit("ns/app", head.name()).isEmpty(), "nothing fetched yet");
    fetched(fetch(GitRef.commit(head.name()).withBranch("main")));
    CommitSummary summary = source.commit("ns/app", head.name()).orElseThrow();
    assertEquals("Bump <b>app</b> to 2", summary.subject());
    assertEquals(head.getAuthorIdent().getName(), summary.author());
    assertEquals(head.name(), summary.commitId());
    assertTrue(source.commit("ns/app", "0".repeat(40)).isEmpty());
    assertTrue(source.commit("ns/app", "../../etc").isEmpty());
  }

  @Test
  void sameTreeGivesSameDigest() throws Exception {
    StoredArtifact first = fetched(fetch(GitRef.branch("main")));
    repo.git().commit().setMessage("empty").setAllowEmpty(true).call();
    StoredArtifact second = fetched(fetch(GitRef.branch("main")));
    assertNotEquals(first.revision(), second.revision());
    assertEquals(first.digest(), second.digest());
  }

  @Test
  void tagsAnnotatedOrNotNameTheCommit() throws Exception {
    RevCommit c = repo.git().log().call().iterator().next();
    repo.tag("v1.0.0", true);
    repo.tag("light", false);
    assertEquals("v1.0.0@sha1:" + c.name(), fetched(fetch(GitRef.tag("v1.0.0"))).revision());
    assertEquals("light@sha1:" + c.name(), fetched(fetch(GitRef.tag("light"))).revision());
    assertInstanceOf(FetchResult.Unchanged.class, fetch(GitRef.tag("light")));
  }

  @Test
  void semverPicksHighestMatchingTagWithoutPrereleases() throws Exception {
    repo.tag("v1.0.0", true);
    RevCommit c2 = repo.commit("2", Map.of("v", "1.2.0"));
    repo.tag("v1.2.0", false);
    repo.commit("3", Map.of("v", "1.3.0-rc.1"));
    repo.tag("v1.3.0-rc.1", true);
    RevCommit c4 = repo.commit("4", Map.of("v", "2.0.0"));
    repo.tag("2.0.0", true);
    repo.tag("not-a-version", false);
    assertEquals("v1.2.0@sha1:" + c2.name(), fetched(fetch(GitRef.semver("^1.0"))).revision());
    assertEquals("2.0.0@sha1:" + c4.name(), fetched(fetch(GitRef.semver(">=1.0.0"))).revision());
    StoredArtifact pre = fetched(fetch(GitRef.semver(">=1.3.0-0 <2.0.0")));
    assertTrue(pre.revision().startsWith("v1.3.0-rc.1@sha1:"), pre.revision());
  }

  @Test
  void nameAndCommitRefs() throws Exception {
    RevCommit first = repo.git().log().call().iterator().next();
    repo.branch("release");
    RevCommit second = repo.commit("second", Map.of("x", "y"));
    assertEquals(
        "refs/heads/main@sha1:" + second.name(),
        fetched(fetch(GitRef.name("refs/heads/main"))).revision());
    assertEquals("sha1:" + first.name(), fetched(fetch(GitRef.commit(first.name()))).revision());
    assertEquals(
        "main@sha1:" + first.name(),
        fetched(fetch(GitRef.commit(first.name()).withBranch("main"))).revision());
  }

  @Test
  void defaultBranchIsRemoteHead() throws Exception {
    RevCommit head = repo.git().log().call().iterator().next();
    assertEquals("main@sha1:" + head.name(), fetched(fetch(GitRef.defaultBranch())).revision());
  }

  @Test
  void ignoreRulesFromSourceIgnoreAndSpec() throws Exception {
    repo.commit(
        "more",
        Map.of(
            ".sourceignore", "*.md\n/docs/\n",
            "docs/guide.yaml", "x\n",
            "app/.sourceignore", "secret.yaml\n",
            "app/secret.yaml", "s\n",
            "app/keep.md", "k\n",
            "other/secret.yaml", "o\n",
            "tests/t.yaml", "t\n"));
    FetchRequest request =
        FetchRequest.of("ns/app", repo.fileUrl(), GitRef.branch("main"))
            .withIgnore("/tests/\n!app/keep.md\n");
    StoredArtifact a = fetched(source.fetch(request));
    Path p = a.path();
    assertTrue(Files.exists(p.resolve("app/deploy.yaml")));
    assertFalse(Files.exists(p.resolve("README.md")), ".sourceignore *.md");
    assertFalse(Files.exists(p.resolve("docs")), ".sourceignore /docs/");
    assertFalse(Files.exists(p.resolve("app/secret.yaml")), "nested .sourceignore");
    assertTrue(Files.exists(p.resolve("other/secret.yaml")), "nested rule stays in its dir");
    assertFalse(Files.exists(p.resolve("tests")), "spec.ignore");
    assertTrue(Files.exists(p.resolve("app/keep.md")), "spec.ignore overrules .sourceignore");

    // Changing only the ignore rules yields a new artifact for the same commit.
    StoredArtifact b = fetched(source.fetch(request.withIgnore(null)));
    assertEquals(a.revision(), b.revision());
    assertTrue(Files.exists(b.path().resolve("tests/t.yaml")));
  }

  @Test
  void anIgnoreRuleWithManyStarsDoesNotHoldTheFetch() throws Exception {
    // As a backtracking regular expression this rule takes minutes on one 100-character name.
    String name = "a".repeat(100);
    repo.commit("long names", Map.of(name, "kept\n", name + "b", "ignored\n"));
    FetchRequest request =
        FetchRequest.of("ns/app", repo.fileUrl(), GitRef.branch("main"))
            .withIgnore("*a*a*a*a*a*a*a*a*b\n");
    StoredArtifact a =
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> fetched(source.fetch(request)));
    assertTrue(Files.exists(a.path().resolve(name)));
    assertFalse(Files.exists(a.path().resolve(name + "b")));
  }

  @Test
  void symlinksOutsideTheTreeAreLeftOut() throws Exception {
    repo.symlink("app/inside", "deploy.yaml");
    repo.symlink("up", "../../etc/passwd");
    repo.symlink("abs", "/etc/passwd");
    repo.symlink("self", ".");
    repo.symlink("climb", "self/../outside");
    StoredArtifact a = fetched(fetch(GitRef.branch("main")));
    Path p = a.path();
    assertTrue(Files.isSymbolicLink(p.resolve("app/inside")));
    assertEquals("kind: Deployment\n", Files.readString(p.resolve("app/inside")));
    assertTrue(Files.isSymbolicLink(p.resolve("self")));
    for (String out : new String[] {"up", "abs", "climb"}) {
      assertFalse(Files.exists(p.resolve(out), LinkOption.NOFOLLOW_LINKS), out);
    }
  }

  @Test
  void executableBitIsKept() throws Exception {
    Path script = repo.dir().resolve("run.sh");
    Files.writeString(script, "#!/bin/sh\n");
    script.toFile().setExecutable(true);
    repo.commitAll("script");
    StoredArtifact a = fetched(fetch(GitRef.branch("main")));
    assertTrue(Files.isExecutable(a.path().resolve("run.sh")));
    assertFalse(Files.isExecutable(a.path().resolve("README.md")));
  }

  @Test
  void failuresKeepTheLastGoodArtifact() throws Exception {
    StoredArtifact good = fetched(fetch(GitRef.branch("main")));
    FetchResult.Failed missing =
        assertInstanceOf(FetchResult.Failed.class, fetch(GitRef.branch("nope")));
    assertEquals(FailureReason.REF_NOT_FOUND, missing.reason());
    assertTrue(missing.message().contains("branch 'nope' does not exist"), missing.message());
    assertEquals(good, missing.lastGood().orElseThrow());
    assertTrue(Files.isDirectory(good.path()));

    FetchResult.Failed semver =
        assertInstanceOf(FetchResult.Failed.class, fetch(GitRef.semver("not a range!")));
    assertEquals(FailureReason.INVALID_REF, semver.reason());
    assertEquals(good, semver.lastGood().orElseThrow());

    FetchResult.Failed noTag =
        assertInstanceOf(FetchResult.Failed.class, fetch(GitRef.semver(">=9.0.0")));
    assertEquals(FailureReason.REF_NOT_FOUND, noTag.reason());

    FetchResult.Failed commit =
        assertInstanceOf(
            FetchResult.Failed.class,
            fetch(GitRef.commit("0123456789012345678901234567890123456789")));
    assertEquals(FailureReason.REF_NOT_FOUND, commit.reason());

    FetchResult.Failed badSha =
        assertInstanceOf(FetchResult.Failed.class, fetch(GitRef.commit("abc")));
    assertEquals(FailureReason.INVALID_REF, badSha.reason());
    assertEquals(good, source.lastArtifact("ns/app").orElseThrow());
  }

  @Test
  void entryLimitCountsFilesAndDirectoriesNotBytes() throws Exception {
    StoredArtifact good = fetched(fetch(GitRef.branch("main")));
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i < 30; i++) {
      many.put("many/f" + i, "");
    }
    repo.commit("many empty files", many);
    GitSource limited =
        new GitSource(
            GitSourceOptions.at(tmp.resolve("store"))
                .withAllowedSchemes(UrlScheme.all())
                .withEntryLimit(20)
                .withRetry(RetryPolicy.none()));
    FetchResult.Failed failed =
        assertInstanceOf(
            FetchResult.Failed.class,
            limited.fetch(FetchRequest.of("ns/app", repo.fileUrl(), GitRef.branch("main"))));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, failed.reason());
    assertTrue(
        failed.message().contains("more than 20 files, directories and links"), failed.message());
    assertEquals(good, failed.lastGood().orElseThrow());
  }

  @Test
  void directoriesNestedPastTheDepthLimitAreRefused() throws Exception {
    repo.commit("deep", Map.of("d/".repeat(257) + "f.yaml", "kind: ConfigMap\n"));
    FetchResult.Failed failed =
        assertInstanceOf(FetchResult.Failed.class, fetch(GitRef.branch("main")));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, failed.reason());
    assertTrue(failed.message().contains("more than 256 levels deep"), failed.message());
  }

  @Test
  void sizeLimitIsEnforcedAndLeavesNoPartialTree() throws Exception {
    StoredArtifact good = fetched(fetch(GitRef.branch("main")));
    repo.commit("big", Map.of("big.txt", "x".repeat(10_000)));
    GitSource limited =
        new GitSource(
            GitSourceOptions.at(tmp.resolve("store"))
                .withAllowedSchemes(UrlScheme.all())
                .withSizeLimitBytes(5_000)
                .withRetry(RetryPolicy.none()));
    FetchResult.Failed failed =
        assertInstanceOf(
            FetchResult.Failed.class,
            limited.fetch(FetchRequest.of("ns/app", repo.fileUrl(), GitRef.branch("main"))));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, failed.reason());
    assertTrue(failed.message().contains("5000 bytes"), failed.message());
    assertEquals(good, failed.lastGood().orElseThrow());
    try (Stream<Path> tmpDirs = Files.list(tmp.resolve("store/tmp"))) {
      assertEquals(0, tmpDirs.count(), "the partial tree is removed");
    }
  }

  @Test
  void invalidUrlsAreRejectedBeforeAnyNetworkUse() {
    for (String url : new String[] {"", "ftp://host/repo", "/just/a/path", "https://"}) {
      FetchResult.Failed f =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(FetchRequest.of("ns/x", url, GitRef.branch("main"))));
      assertEquals(FailureReason.INVALID_URL, f.reason(), url);
    }
  }

  @Test
  void cacheIsRepackedWhenFetchesPileUpPacks() throws Exception {
    StoredArtifact last = null;
    for (int i = 0; i <= RepositoryCache.MAX_PACKS + 2; i++) {
      RevCommit c = repo.commit("c" + i, Map.of("n.txt", Integer.toString(i)));
      last = fetched(fetch(GitRef.branch("main")));
      assertEquals("main@sha1:" + c.name(), last.revision());
    }
    Path packs =
        tmp.resolve("store/sources")
            .resolve(ArtifactStore.dirName("ns/app"))
            .resolve("git/objects/pack");
    try (Stream<Path> files = Files.list(packs)) {
      long count = files.filter(f -> f.toString().endsWith(".pack")).count();
      assertTrue(count <= RepositoryCache.MAX_PACKS, "packs after repacking: " + count);
    }
    assertEquals(
        Integer.toString(RepositoryCache.MAX_PACKS + 2),
        Files.readString(last.path().resolve("n.txt")));
  }

  @Test
  void abandonedTemporaryTreesAreCollected() throws Exception {
    Path stale = Files.createDirectories(tmp.resolve("store/tmp/left-by-a-crash"));
    Files.writeString(stale.resolve("f"), "x");
    Files.setLastModifiedTime(
        stale, FileTime.from(Instant.now().minus(ArtifactStore.ABANDONED_AFTER).minusSeconds(60)));
    Path fresh = Files.createDirectories(tmp.resolve("store/tmp/being-written"));
    fetched(fetch(GitRef.branch("main")));
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(fresh), "a tree another fetch may still be writing is kept");
  }
}
