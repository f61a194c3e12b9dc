package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenRefreshTest {

  @TempDir Path dir;

  @Test
  void aCertificateAloneHasTheRefreshTakenOut() throws Exception {
    Path file = copy("certificate.yaml");
    Config config = Config.fromKubeconfig(null, file.toFile());

    Map<String, Interceptor> replaced = interceptorsSetOn(config);

    assertEquals(1, replaced.size(), "one interceptor replaced: " + replaced.keySet());
    Interceptor refresh = replaced.get(TokenRefreshInterceptor.NAME);
    assertTrue(refresh != null, "the token refresh is the one replaced");
    // The replacement neither sets a header nor reads the kubeconfig again (it is gone now).
    Files.delete(file);
    refresh.before(failingOnAnyHeader(), null, null);
    assertFalse(refresh.afterFailure(failingOnAnyHeader(), null, null).get());
  }

  @Test
  void anyTokenKeepsTheClientsOwnRefresh() throws Exception {
    for (String kubeconfig :
        new String[] {"certificate-and-token.yaml", "token.yaml", "auth-provider.yaml"}) {
      Config config = Config.fromKubeconfig(null, copy(kubeconfig).toFile());

      assertEquals(Map.of(), interceptorsSetOn(config), kubeconfig);
    }
  }

  @Test
  void aTokenFoundForTheUserOrGivenByAProviderKeepsTheRefresh() {
    Config found = certificateOnly();
    found.setAutoOAuthToken("a-service-account-token");
    Config provided =
        new ConfigBuilder(certificateOnly()).withOauthTokenProvider(() -> "a-token").build();

    assertEquals(Map.of(), interceptorsSetOn(found));
    assertEquals(Map.of(), interceptorsSetOn(provided));
    assertEquals(1, interceptorsSetOn(certificateOnly()).size());
  }

  @Test
  void aUsernameAndPasswordBesideTheCertificateKeepTheRefreshThatSendsThem() {
    Config basic =
        new ConfigBuilder(certificateOnly()).withUsername("admin").withPassword("secret").build();

    assertEquals(Map.of(), interceptorsSetOn(basic));
  }

  @Test
  void noCredentialsAtAllKeepTheRefresh() {
    Config anonymous = new ConfigBuilder(Config.empty()).withMasterUrl("https://h:6443").build();

    assertEquals(Map.of(), interceptorsSetOn(anonymous));
  }

  private static Config certificateOnly() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl("https://h:6443")
        .withClientCertData("Y2VydA==")
        .withClientKeyData("a2V5")
        .build();
  }

  /** The interceptors {@link TokenRefresh#forConfig} adds or replaces on a client builder. */
  private static Map<String, Interceptor> interceptorsSetOn(Config config) {
    Map<String, Interceptor> set = new LinkedHashMap<>();
    HttpClient.Builder builder =
        (HttpClient.Builder)
            Proxy.newProxyInstance(
                TokenRefreshTest.class.getClassLoader(),
                new Class<?>[] {HttpClient.Builder.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("addOrReplaceInterceptor")) {
                    throw new AssertionError("unexpected call " + method.getName());
                  }
                  set.put((String) args[0], (Interceptor) args[1]);
                  return proxy;
                });
    TokenRefresh.forConfig(config).accept(builder);
    return set;
  }

  private static BasicBuilder failingOnAnyHeader() {
    return (BasicBuilder)
        Proxy.newProxyInstance(
            TokenRefreshTest.class.getClassLoader(),
            new Class<?>[] {BasicBuilder.class},
            (proxy, method, args) -> {
              throw new AssertionError("a header was set: " + method.getName());
            });
  }

  private Path copy(String name) throws IOException, URISyntaxException {
    Path source = Path.of(TokenRefreshTest.class.getResource("/kubeconfig/" + name).toURI());
    return Files.copy(source, dir.resolve(name));
  }
}
