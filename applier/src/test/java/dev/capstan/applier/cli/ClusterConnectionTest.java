package dev.capstan.applier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterConnectionTest {

  @TempDir Path dir;

  @Test
  void aMalformedKubeconfigIsOneLineNamingTheFileAndWhereTheYamlBroke() throws Exception {
    Path kubeconfig = dir.resolve("config");
    Files.writeString(kubeconfig, "apiVersion: v1\nclusters: [is not, s3cr3t\n");
    KubernetesClientException e =
        assertThrows(KubernetesClientException.class, () -> ClusterConnection.open(kubeconfig));
    assertTrue(e.getMessage().startsWith("cannot read the kubeconfig " + kubeconfig + ": "), e.getMessage());
    assertTrue(e.getMessage().contains("(line 2, column 11)"), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertTrue(!e.getMessage().contains("s3cr3t"), "the file's text is never quoted: " + e.getMessage());
  }

  @Test
  void aMissingKubeconfigIsOneLineNamingTheFile() {
    Path missing = dir.resolve("nowhere");
    KubernetesClientException e =
        assertThrows(KubernetesClientException.class, () -> ClusterConnection.open(missing));
    assertTrue(e.getMessage().startsWith("cannot read the kubeconfig " + missing + ": "), e.getMessage());
    assertEquals("cannot read the kubeconfig " + missing + ": no such file", e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }
}
