package dev.capstan.engine.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A kubeconfig from a Secret is hostile: only inline data are taken, and nothing of it is echoed.
 */
class KubeConfigParserTest {
  private static final String WHERE = "Secret 'team/remote' key 'value'";

  private static String kubeconfig(String clusterExtra, String user) {
    return """
    apiVersion: v1
    kind: Config
    current-context: remote
    contexts:
    - name: remote
      context: {cluster: remote, user: deployer, namespace: default}
    clusters:
    - name: remote
      cluster:
        server: https://127.0.0.1:36443
        certificate-authority-data: Q0EtREFUQQ==
    %s
    users:
    - name: deployer
      user:
    %s
    """
        .formatted(clusterExtra.indent(4).stripTrailing(), user.indent(4).stripTrailing());
  }

  private static RemoteConnection parse(String yaml) {
    return KubeConfigParser.parse(yaml.getBytes(StandardCharsets.UTF_8), WHERE);
  }

  @Test
  void takesTheCurrentContextsInlineCertificatesAndToken() {
    RemoteConnection connection =
        parse(
            kubeconfig(
                "",
                """
                client-certificate-data: Q0VSVC1TRUNSRVQ=
                client-key-data: S0VZLVNFQ1JFVA==
                token: token-secret-123
                """));
    assertEquals("https://127.0.0.1:36443", connection.server());
    assertEquals("Q0EtREFUQQ==", connection.caData());
    assertEquals("Q0VSVC1TRUNSRVQ=", connection.clientCertData());
    assertEquals("S0VZLVNFQ1JFVA==", connection.clientKeyData());
    assertEquals("token-secret-123", connection.token().get());
    assertFalse(
        connection.toString().contains("S0VZ")
            || connection.toString().contains("token-secret")
            || connection.toString().contains("Q0VS"),
        connection.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, 'cat"
            + " /etc/shadow']}",
        "auth-provider: {name: oidc, config: {client-secret: SECRET-VALUE}}",
        "client-certificate: /etc/engine/tls.crt",
        "client-key: /etc/engine/tls.key",
        "tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token",
        "as: system:admin"
      })
  void refusesPluginsFilePathsAndImpersonationOfTheUser(String field) {
    String name = field.substring(0, field.indexOf(':'));
    refused(
        () -> parse(kubeconfig("", field)),
        List.of(
            "the kubeconfig in " + WHERE + " cannot be used",
            "user 'deployer' uses '" + name + "', which is not allowed"),
        List.of("/bin/sh", "SECRET-VALUE", "/etc/engine", "/var/run", "system:admin"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "certificate-authority: /etc/ssl/private/ca.pem",
        "proxy-url: http://10.0.0.1:3128",
        "tls-server-name: kubernetes"
      })
  void refusesFilePathsAndProxiesOfTheCluster(String field) {
    String yaml =
        kubeconfig("", "token: t").replace("certificate-authority-data: Q0EtREFUQQ==", field);
    refused(
        () -> parse(yaml),
        List.of("cluster 'remote' uses '" + field.substring(0, field.indexOf(':')) + "'"),
        List.of("/etc/ssl", "10.0.0.1"));
  }

  @Test
  void malformedYamlIsReportedWithoutItsText() {
    String yaml = "current-context: remote\nusers: [{name: a, user: {token: SECRET-TOKEN\n";
    refused(() -> parse(yaml), List.of("it is not valid YAML"), List.of("SECRET-TOKEN"));
  }

  @Test
  void aKubeconfigWithoutCurrentContextOrServerIsRefused() {
    refused(
        () -> parse(kubeconfig("", "token: t").replace("current-context: remote\n", "")),
        List.of("current-context is not set"),
        List.of());
    refused(
        () ->
            parse(
                kubeconfig("", "token: t")
                    .replace("server: https://127.0.0.1:36443", "server: /tmp/sock")),
        List.of("cluster 'remote' has no http(s) server URL"),
        List.of());
    refused(
        () ->
            parse(
                kubeconfig("", "token: t")
                    .replace("cluster: remote, user", "cluster: other, user")),
        List.of("it has no cluster named 'other'"),
        List.of());
  }

  @Test
  void sizeAndAliasesAreBounded() {
    byte[] large = new byte[KubeConfigParser.MAX_BYTES + 1];
    refused(() -> KubeConfigParser.parse(large, WHERE), List.of("larger than 256 KiB"), List.of());
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (int i = 0; i < 12; i++) {
      bomb.append((char) ('b' + i))
          .append(": &")
          .append((char) ('b' + i))
          .append(" [")
          .append(("*" + (char) ('a' + i) + ", ").repeat(8))
          .append("*")
          .append((char) ('a' + i))
          .append("]\n");
    }
    refused(() -> parse(bomb.toString()), List.of("not valid YAML"), List.of());
  }

  private static void refused(Executable parse, List<String> says, List<String> neverSays) {
    RemoteClusterException e = assertThrows(RemoteClusterException.class, parse);
    says.forEach(text -> assertTrue(e.getMessage().contains(text), e.getMessage()));
    neverSays.forEach(text -> assertFalse(e.getMessage().contains(text), e.getMessage()));
  }
}
