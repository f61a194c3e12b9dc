package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec.sparseCheckout: only the named directories go into the artifact. */
class SparseCheckoutIT {

  @TempDir Path tmp;

  @Test
  void keepsOnlyTheNamedDirectories() throws Exception {
    try (TestRepo repo = TestRepo.create(tmp.resolve("served/app"));
        HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      repo.commit(
          "files",
          Map.of(
              "deploy/prod/a.yaml",
              "a\n",
              "deploy/dev/b.yaml",
              "b\n",
              "docs/c.md",
              "c\n",
              "root.yaml",
              "r\n"));
      GitSource source = new GitSource(GitSourceOptions.at(tmp.resolve("store")));
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"));

      StoredArtifact all =
          assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
      StoredArtifact sparse =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(request.withSparseCheckout(List.of("./deploy/prod/", "docs"))))
              .current();
      assertEquals("a\n", Files.readString(sparse.path().resolve("deploy/prod/a.yaml")));
      assertEquals("c\n", Files.readString(sparse.path().resolve("docs/c.md")));
      assertFalse(Files.exists(sparse.path().resolve("deploy/dev")));
      assertFalse(Files.exists(sparse.path().resolve("root.yaml")));
      assertNotEquals(all.digest(), sparse.digest());
      assertTrue(Files.exists(all.path().resolve("root.yaml")), "the full artifact is untouched");

      FetchResult.Failed outside =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(request.withSparseCheckout(List.of("deploy/../../etc"))));
      assertEquals(FailureReason.INVALID_SPEC, outside.reason());
      assertEquals("spec.sparseCheckout[0] must not contain '..'", outside.message());
    }
  }
}
