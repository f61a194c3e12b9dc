package dev.capstan.source.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec.recurseSubmodules: submodules go into the artifact, with the GitRepository's credentials
 * only on the parent's own origin, and nested no deeper than {@link SubmoduleFetcher#MAX_NESTING}.
 */
class SubmoduleIT {

  @TempDir Path tmp;

  @Test
  void submoduleIsFetchedWithTheParentsCredentialsOnTheSameHost() throws Exception {
    try (TestRepo lib = TestRepo.create(tmp.resolve("served/lib"));
        TestRepo app = TestRepo.create(tmp.resolve("served/app"));
        HttpGitServer server = HttpGitServer.basicAuth(tmp.resolve("served"), "alice", "pw")) {
      lib.commit("lib", Map.of("lib.yaml", "lib\n"));
      app.commit("app", Map.of("app.yaml", "app\n"));
      // The submodule's work tree is cloned from disk; what the fetch reads is .gitmodules.
      app.git()
          .submoduleAdd()
          .setPath("vendor/lib")
          .setURI(lib.dir().toUri().toString())
          .call()
          .close();
      Files.writeString(
          app.dir().resolve(".gitmodules"),
          "[submodule \"vendor/lib\"]\n\tpath = vendor/lib\n\turl = ../lib\n",
          UTF_8);
      app.commitAll("add submodule");

      GitSource source =
          new GitSource(
              GitSourceOptions.at(tmp.resolve("store"))
                  .withCredentialsOverPlainHttp(true)
                  .withRetry(new RetryPolicy(1, Duration.ofMillis(1), 1.0)));
      FetchRequest request =
          FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
              .withSecretData(
                  Map.of("username", "alice".getBytes(UTF_8), "password", "pw".getBytes(UTF_8)));

      StoredArtifact without = source.fetch(request).artifact().orElseThrow();
      assertFalse(Files.exists(without.path().resolve("vendor/lib/lib.yaml")));

      StoredArtifact with =
          assertInstanceOf(
                  FetchResult.Fetched.class, source.fetch(request.withRecurseSubmodules(true)))
              .current();
      assertEquals("lib\n", Files.readString(with.path().resolve("vendor/lib/lib.yaml")));
      assertEquals("app\n", Files.readString(with.path().resolve("app.yaml")));
    }
  }

  /**
   * Adds {@code sub} as a submodule of {@code parent} at {@code path}, with the URL {@code url}.
   */
  private static void addSubmodule(TestRepo parent, TestRepo sub, String path, String url)
      throws Exception {
    // The submodule's work tree is cloned from disk; what the fetch reads is .gitmodules.
    parent.git().submoduleAdd().setPath(path).setURI(sub.dir().toUri().toString()).call().close();
    Files.writeString(
        parent.dir().resolve(".gitmodules"),
        "[submodule \"" + path + "\"]\n\tpath = " + path + "\n\turl = " + url + "\n",
        UTF_8);
    parent.commitAll("add submodule " + path);
  }

  @Test
  void submoduleOnAnotherOriginIsFetchedWithoutTheParentsCredentials() throws Exception {
    try (TestRepo lib = TestRepo.create(tmp.resolve("other/lib"));
        TestRepo app = TestRepo.create(tmp.resolve("served/app"));
        HttpGitServer parent = HttpGitServer.basicAuth(tmp.resolve("served"), "alice", "pw");
        HttpGitServer other = HttpGitServer.anonymous(tmp.resolve("other"))) {
      lib.commit("lib", Map.of("lib.yaml", "lib\n"));
      app.commit("app", Map.of("app.yaml", "app\n"));
      addSubmodule(app, lib, "vendor/lib", other.url("lib"));

      GitSource source =
          new GitSource(
              GitSourceOptions.at(tmp.resolve("store"))
                  .withCredentialsOverPlainHttp(true)
                  .withRetry(RetryPolicy.none()));
      FetchResult result =
          source.fetch(
              FetchRequest.of("ns/app", parent.url("app"), GitRef.branch("main"))
                  .withSecretData(
                      Map.of("username", "alice".getBytes(UTF_8), "password", "pw".getBytes(UTF_8)))
                  .withRecurseSubmodules(true));

      StoredArtifact artifact =
          assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
      assertEquals("lib\n", Files.readString(artifact.path().resolve("vendor/lib/lib.yaml")));
      assertFalse(parent.authorizations().isEmpty(), "the parent's origin gets the credentials");
      assertTrue(other.requests() > 0, "the submodule was fetched from the other origin");
      assertEquals(List.of(), other.authorizations(), "which never gets them");
    }
  }

  @Test
  void submodulesNestNoDeeperThanTheLimit() throws Exception {
    // m1 has m2 as a submodule, ..., m6 has m7; shallow starts at m2 (6 levels), deep at m1 (7).
    int levels = SubmoduleFetcher.MAX_NESTING + 2;
    List<TestRepo> modules = new ArrayList<>();
    try (HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      for (int i = levels; i >= 1; i--) {
        TestRepo module = TestRepo.create(tmp.resolve("served/m" + i));
        modules.add(module);
        module.commit("m" + i, Map.of("m" + i + ".yaml", "m" + i + "\n"));
        if (i < levels) {
          addSubmodule(module, modules.get(modules.size() - 2), "sub", "../m" + (i + 1));
        }
      }
      GitSource source =
          new GitSource(GitSourceOptions.at(tmp.resolve("store")).withRetry(RetryPolicy.none()));

      StoredArtifact shallow =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(
                      FetchRequest.of("ns/m2", server.url("m2"), GitRef.branch("main"))
                          .withRecurseSubmodules(true)))
              .current();
      String fifth = "sub/".repeat(SubmoduleFetcher.MAX_NESTING);
      assertEquals(
          "m7\n",
          Files.readString(shallow.path().resolve(fifth + "m7.yaml")),
          "the root and " + SubmoduleFetcher.MAX_NESTING + " levels of submodules");

      FetchResult.Failed deep =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  FetchRequest.of("ns/m1", server.url("m1"), GitRef.branch("main"))
                      .withRecurseSubmodules(true)));
      assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, deep.reason(), deep.message());
      assertTrue(
          deep.message()
              .contains(
                  "submodule '"
                      + "sub/".repeat(SubmoduleFetcher.MAX_NESTING + 1).replaceAll("/$", "")
                      + "' nests submodules more than 5 levels deep"),
          deep.message());
    } finally {
      modules.forEach(TestRepo::close);
    }
  }
}
