package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.IncludedRevision;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec.include: another source's stored artifact copied into this one's. */
class IncludeIT {

  @TempDir Path tmp;

  @Test
  void includedArtifactIsCopiedAndItsRevisionChangesTheDigest() throws Exception {
    try (TestRepo app = TestRepo.create(tmp.resolve("served/app"));
        TestRepo lib = TestRepo.create(tmp.resolve("served/lib"));
        HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      app.commit("app", Map.of("app.yaml", "app\n"));
      lib.commit("lib", Map.of("deploy/lib.yaml", "lib 1\n", "other/x.yaml", "x\n"));
      GitSource source = new GitSource(GitSourceOptions.at(tmp.resolve("store")));
      StoredArtifact lib1 =
          source
              .fetch(FetchRequest.of("ns/lib", server.url("lib"), GitRef.branch("main")))
              .artifact()
              .orElseThrow();
      FetchRequest plain = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"));
      StoredArtifact alone = source.fetch(plain).artifact().orElseThrow();

      StoredArtifact with1 =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(
                      plain.withIncludes(
                          List.of(
                              new Inclusion(
                                  "lib", lib1.revision(), lib1.digest(), "deploy", "vendor/lib")))))
              .current();
      assertEquals("lib 1\n", Files.readString(with1.path().resolve("vendor/lib/lib.yaml")));
      assertEquals("app\n", Files.readString(with1.path().resolve("app.yaml")));
      assertFalse(
          Files.exists(with1.path().resolve("vendor/lib/other")), "only fromPath is copied");
      assertEquals(
          List.of(new IncludedRevision("lib", lib1.revision(), lib1.digest(), "vendor/lib")),
          with1.included());
      assertEquals(alone.revision(), with1.revision());
      assertNotEquals(alone.digest(), with1.digest());

      lib.commit("lib 2", Map.of("deploy/lib.yaml", "lib 2\n"));
      StoredArtifact lib2 =
          source
              .fetch(FetchRequest.of("ns/lib", server.url("lib"), GitRef.branch("main")))
              .artifact()
              .orElseThrow();
      StoredArtifact with2 =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(
                      plain.withIncludes(
                          List.of(
                              new Inclusion(
                                  "lib", lib2.revision(), lib2.digest(), "deploy", "vendor/lib")))))
              .current();
      assertEquals("lib 2\n", Files.readString(with2.path().resolve("vendor/lib/lib.yaml")));
      assertNotEquals(with1.digest(), with2.digest(), "an included revision changes the digest");

      StoredArtifact defaulted =
          source
              .fetch(
                  plain.withIncludes(
                      List.of(new Inclusion("lib", lib2.revision(), lib2.digest(), null, null))))
              .artifact()
              .orElseThrow();
      assertEquals(
          "x\n",
          Files.readString(defaulted.path().resolve("lib/other/x.yaml")),
          "toPath defaults to the repository's name");

      FetchResult.Failed climbing =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  plain.withIncludes(
                      List.of(
                          new Inclusion(
                              "lib", lib2.revision(), lib2.digest(), null, "../../outside")))));
      assertEquals(FailureReason.INVALID_SPEC, climbing.reason());
      assertEquals("spec.include[0].toPath must not contain '..'", climbing.message());
      assertEquals(Optional.of(defaulted), climbing.lastGood());

      FetchResult.Failed gone =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  plain.withIncludes(
                      List.of(
                          new Inclusion(
                              "lib", lib2.revision(), "sha256:" + "0".repeat(64), null, null)))));
      assertEquals(FailureReason.INCLUDE_UNAVAILABLE, gone.reason());
      assertEquals(
          "the artifact of included GitRepository 'lib' is not in storage", gone.message());
      assertEquals(Optional.of(defaulted), gone.lastGood());
    }
  }
}
