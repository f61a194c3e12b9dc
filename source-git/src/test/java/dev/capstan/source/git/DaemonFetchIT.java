package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.git.transport.UrlScheme;
import dev.capstan.source.testing.DaemonGitServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetches over git:// from JGit's daemon on loopback. */
class DaemonFetchIT {

  @TempDir Path tmp;

  @Test
  void fetchesBranchTagAndSemverOverGitProtocol() throws Exception {
    try (TestRepo repo = TestRepo.create(tmp.resolve("served/app"));
        DaemonGitServer daemon = DaemonGitServer.start(tmp.resolve("served"))) {
      RevCommit first = repo.commit("first", Map.of("a.yaml", "a\n"));
      repo.tag("v0.1.0", true);
      RevCommit second = repo.commit("second", Map.of("a.yaml", "b\n"));
      GitSource source =
          new GitSource(
              GitSourceOptions.at(tmp.resolve("store"))
                  .withAllowedSchemes(UrlScheme.all())
                  .withRetry(RetryPolicy.none()));

      StoredArtifact branch =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(FetchRequest.of("ns/a", daemon.url("app"), GitRef.branch("main"))))
              .current();
      assertEquals("main@sha1:" + second.name(), branch.revision());
      assertEquals("b\n", Files.readString(branch.path().resolve("a.yaml")));
      assertInstanceOf(
          FetchResult.Unchanged.class,
          source.fetch(FetchRequest.of("ns/a", daemon.url("app"), GitRef.branch("main"))));

      StoredArtifact semver =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(FetchRequest.of("ns/b", daemon.url("app"), GitRef.semver("~0.1"))))
              .current();
      assertEquals("v0.1.0@sha1:" + first.name(), semver.revision());
      assertEquals("a\n", Files.readString(semver.path().resolve("a.yaml")));

      StoredArtifact commit =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(
                      FetchRequest.of("ns/c", daemon.url("app"), GitRef.commit(first.name()))))
              .current();
      assertEquals("sha1:" + first.name(), commit.revision());
      assertEquals(semver.digest(), commit.digest(), "same tree, same digest");
      assertTrue(Files.isDirectory(branch.path()));
    }
  }
}
