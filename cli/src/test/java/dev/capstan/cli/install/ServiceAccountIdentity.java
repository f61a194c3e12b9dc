package dev.capstan.cli.install;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * A service account's identity as a pod would have it: a token from the TokenRequest API, with no
 * client certificate, as a client and as a kubeconfig file for a process.
 */
record ServiceAccountIdentity(String namespace, String name, String token, Config config) {

  static ServiceAccountIdentity of(KubernetesClient admin, String namespace, String name) {
    TokenRequest request =
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
    String token =
        admin
            .serviceAccounts()
            .inNamespace(namespace)
            .withName(name)
            .tokenRequest(request)
            .getStatus()
            .getToken();
    Config adminConfig = admin.getConfiguration();
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(adminConfig.getMasterUrl())
            .withCaCertData(adminConfig.getCaCertData())
            .withCaCertFile(adminConfig.getCaCertFile())
            .withOauthToken(token)
            .build();
    return new ServiceAccountIdentity(namespace, name, token, config);
  }

  KubernetesClient client() {
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** A kubeconfig holding only the server, its CA and the token. */
  Path writeKubeconfig(Path file) throws IOException {
    String ca =
        config.getCaCertData() != null
            ? config.getCaCertData()
            : Base64.getEncoder()
                .encodeToString(Files.readAllBytes(Path.of(config.getCaCertFile())));
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: local
          context: {cluster: local, user: %s}
        current-context: local
        """
            .formatted(config.getMasterUrl(), ca, name, token, name));
    return file;
  }
}
