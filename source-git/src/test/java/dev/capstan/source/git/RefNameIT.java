package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec.ref.name: any ref the remote advertises, e.g. a pull request's head; and its precedence. */
class RefNameIT {

  @TempDir Path tmp;

  @Test
  void fetchesAPullRequestRefAndNameWinsOverSemverTagAndBranch() throws Exception {
    try (TestRepo repo = TestRepo.create(tmp.resolve("served/app"));
        HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      RevCommit main = repo.commit("main", Map.of("cm.yaml", "from: main\n"));
      repo.tag("v1.0.0", true);
      repo.branch("feature");
      repo.checkout("feature");
      RevCommit pr = repo.commit("pr", Map.of("cm.yaml", "from: pull request\n"));
      var update = repo.git().getRepository().updateRef("refs/pull/1/head");
      update.setNewObjectId(pr);
      update.forceUpdate();
      repo.checkout("main");
      repo.git().branchDelete().setBranchNames("feature").setForce(true).call();

      GitSource source = new GitSource(GitSourceOptions.at(tmp.resolve("store")));
      GitRef ref = new GitRef("main", "v1.0.0", ">=1.0.0", "refs/pull/1/head", null);
      StoredArtifact a =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(FetchRequest.of("ns/app", server.url("app"), ref)))
              .current();
      assertEquals("refs/pull/1/head@sha1:" + pr.name(), a.revision());
      assertEquals("from: pull request\n", Files.readString(a.path().resolve("cm.yaml")));

      StoredArtifact byCommit =
          source
              .fetch(
                  FetchRequest.of(
                      "ns/app",
                      server.url("app"),
                      new GitRef(null, null, null, "refs/pull/1/head", main.name())))
              .artifact()
              .orElseThrow();
      assertEquals("sha1:" + main.name(), byCommit.revision(), "commit wins over name");

      FetchResult.Failed missing =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  FetchRequest.of("ns/app", server.url("app"), GitRef.name("refs/pull/2/head"))));
      assertEquals(FailureReason.REF_NOT_FOUND, missing.reason());
      assertEquals(
          "failed to fetch ref 'refs/pull/2/head' from '"
              + server.url("app")
              + "': ref 'refs/pull/2/head' does not exist",
          missing.message());
    }
  }
}
