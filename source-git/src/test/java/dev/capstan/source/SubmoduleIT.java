package dev.capstan.source;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec.recurseSubmodules: a submodule served by the same (authenticated) server goes into the artifact. */
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
      app.git().submoduleAdd().setPath("vendor/lib").setURI(lib.dir().toUri().toString()).call().close();
      Files.writeString(app.dir().resolve(".gitmodules"),
          "[submodule \"vendor/lib\"]\n\tpath = vendor/lib\n\turl = ../lib\n", UTF_8);
      app.commitAll("add submodule");

      GitSource source = new GitSource(GitSourceOptions.at(tmp.resolve("store"))
          .withCredentialsOverPlainHttp(true).withRetry(new RetryPolicy(1, Duration.ofMillis(1), 1.0)));
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
          .withSecret(Map.of("username", "alice".getBytes(UTF_8), "password", "pw".getBytes(UTF_8)));

      Artifact without = source.fetch(request).artifact().orElseThrow();
      assertFalse(Files.exists(without.path().resolve("vendor/lib/lib.yaml")));

      Artifact with = assertInstanceOf(FetchResult.Fetched.class,
          source.fetch(request.withRecurseSubmodules(true))).current();
      assertEquals("lib\n", Files.readString(with.path().resolve("vendor/lib/lib.yaml")));
      assertEquals("app\n", Files.readString(with.path().resolve("app.yaml")));
    }
  }
}
