package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A Secret is read and decoded in one place, {@link SecretReader} and {@link SecretEntries}, and
 * written in one, {@link SecretWriter}: no other main source of the repository reaches Secrets
 * through the client ({@code .secrets()}) or decodes a Secret's {@code getData()} from Base64
 * itself.
 */
class SecretsReadOnceTest {
  private static final Pattern READS = Pattern.compile("\\.secrets\\(\\)");
  private static final Pattern DECODES = Pattern.compile("Base64\\s*\\.\\s*get(Mime)?Decoder\\(");
  private static final Pattern SECRET_DATA = Pattern.compile("\\.getData\\(\\)");
  private static final Pattern SECRET_TYPE =
      Pattern.compile("import io\\.fabric8\\.kubernetes\\.api\\.model\\.Secret;");

  @Test
  void onlySecretReaderReadsAndDecodesSecrets() throws IOException {
    Path root = RepoRoot.find();
    List<String> readers = new ArrayList<>();
    for (Path file : RepoRoot.mainSources(root)) {
      String path = root.relativize(file).toString().replace('\\', '/');
      if (!isSecretReader(path) && readsOrDecodesASecret(Files.readString(file))) {
        readers.add(path);
      }
    }
    assertTrue(
        readers.isEmpty(),
        "use SecretReader or SecretEntries instead in:\n" + String.join("\n", readers));
  }

  @Test
  void aSecretReadThroughTheClientIsFound() {
    String source =
        """
        class A {
          Secret get(KubernetesClient client) {
            return client.secrets().inNamespace("a").withName("b").get();
          }
        }
        """;
    assertTrue(readsOrDecodesASecret(source));
  }

  @Test
  void aSecretsDataDecodedByHandIsFound() {
    String source =
        """
        import io.fabric8.kubernetes.api.model.Secret;
        class A {
          byte[] key(Secret secret) {
            return Base64.getDecoder().decode(secret.getData().get("key"));
          }
        }
        """;
    assertTrue(readsOrDecodesASecret(source));
  }

  @Test
  void base64OfSomethingElseIsNoSecretRead() {
    String source =
        """
        import io.fabric8.kubernetes.api.model.ConfigMap;
        class A {
          byte[] ca(ConfigMap map) {
            return Base64.getDecoder().decode(map.getData().get("ca.crt"));
          }
        }
        """;
    assertFalse(readsOrDecodesASecret(source));
  }

  static boolean readsOrDecodesASecret(String source) {
    return READS.matcher(source).find()
        || DECODES.matcher(source).find()
            && SECRET_DATA.matcher(source).find()
            && SECRET_TYPE.matcher(source).find();
  }

  private static boolean isSecretReader(String path) {
    return path.endsWith("/dev/capstan/kube/SecretReader.java")
        || path.endsWith("/dev/capstan/kube/SecretEntries.java")
        || path.endsWith("/dev/capstan/kube/SecretWriter.java");
  }
}
