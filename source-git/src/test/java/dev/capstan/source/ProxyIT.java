package dev.capstan.source;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import dev.capstan.testing.ForwardProxy;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec.proxySecretRef: HTTP fetches go through the proxy the Secret names. */
class ProxyIT {

  @TempDir Path tmp;

  @Test
  void fetchGoesThroughTheProxy() throws Exception {
    try (TestRepo repo = TestRepo.create(tmp.resolve("served/app"));
        HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"));
        ForwardProxy proxy = ForwardProxy.start()) {
      repo.commit("first", Map.of("cm.yaml", "v\n"));
      GitSource source = new GitSource(GitSourceOptions.at(tmp.resolve("store")));
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
          .withProxy(Map.of("address", proxy.address().getBytes(UTF_8)));
      assertInstanceOf(FetchResult.Fetched.class, source.fetch(request));
      assertTrue(proxy.requestLines().stream().anyMatch(l ->
          l.startsWith("GET " + server.url("app") + "/info/refs")), proxy.requestLines().toString());
      assertTrue(proxy.requestLines().stream().anyMatch(l ->
          l.startsWith("POST " + server.url("app") + "/git-upload-pack")), proxy.requestLines().toString());

      FetchResult.Failed withCredentials = assertInstanceOf(FetchResult.Failed.class, source.fetch(
          request.withProxy(Map.of("address", proxy.address().getBytes(UTF_8),
              "username", "proxy-user".getBytes(UTF_8), "password", "proxy-s3cret".getBytes(UTF_8)))));
      assertEquals(FailureReason.INVALID_SECRET, withCredentials.reason());
      assertTrue(withCredentials.message().startsWith("the proxy secret has a username or password"),
          withCredentials.message());
      assertTrue(!withCredentials.message().contains("proxy-s3cret"));

      FetchResult.Failed noAddress = assertInstanceOf(FetchResult.Failed.class,
          source.fetch(request.withProxy(Map.of("username", "u".getBytes(UTF_8)))));
      assertEquals("the proxy secret has no 'address'", noAddress.message());
    }
  }
}
