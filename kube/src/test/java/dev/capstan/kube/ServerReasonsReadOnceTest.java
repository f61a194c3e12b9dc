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
 * The API server's reason for a failed request is read from the client's exception in one place,
 * {@link ApiErrors}: no other main source of the repository takes the message or reason out of a
 * {@code KubernetesClientException}'s Status itself.
 */
class ServerReasonsReadOnceTest {
  private static final Pattern READS_STATUS =
      Pattern.compile("getStatus\\(\\)\\s*\\.\\s*get(Message|Reason)\\(");

  @Test
  void onlyApiErrorsReadsTheServersReason() throws IOException {
    Path root = RepoRoot.find();
    List<String> readers = new ArrayList<>();
    for (Path file : RepoRoot.mainSources(root)) {
      String path = root.relativize(file).toString().replace('\\', '/');
      if (!path.contains("/src/main/java/dev/capstan/kube/")
          && readsTheServersReason(Files.readString(file))) {
        readers.add(path);
      }
    }
    assertTrue(readers.isEmpty(), "use ApiErrors instead in:\n" + String.join("\n", readers));
  }

  @Test
  void aStatusReadOffAClientExceptionIsFound() {
    String source =
        """
        import io.fabric8.kubernetes.client.KubernetesClientException;
        class A {
          String why(KubernetesClientException e) {
            return e.getStatus() != null ? e.getStatus()
                .getMessage() : e.getMessage();
          }
        }
        """;
    assertTrue(readsTheServersReason(source));
  }

  @Test
  void theStatusOfAnotherObjectIsNoReason() {
    String source =
        """
        class A {
          String why(Pod pod) {
            return pod.getStatus().getReason();
          }
        }
        """;
    assertFalse(readsTheServersReason(source));
  }

  static boolean readsTheServersReason(String source) {
    return source.contains("KubernetesClientException") && READS_STATUS.matcher(source).find();
  }
}
