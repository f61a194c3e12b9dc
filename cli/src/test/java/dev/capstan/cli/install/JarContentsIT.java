package dev.capstan.cli.install;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar holds one library for each job: one HTTP client, one SSH library, one logging
 * API, nothing unused; and Capstan's own code reads YAML with one parser. (Git over HTTP uses the
 * JDK's own connections, also through a proxy that asks for credentials.)
 */
class JarContentsIT {
  private static final Map<String, String> LEFT_OUT =
      Map.of(
          "okhttp3/", "OkHttp (a second HTTP client)",
          "kotlin/", "Kotlin's library (OkHttp's)",
          "io/fabric8/kubernetes/client/jdkhttp/",
              "the JDK HTTP client's adapter (a second HTTP client)",
          "io/fabric8/kubernetes/client/okhttp/", "the OkHttp adapter",
          "org/apache/sshd/sftp/", "SFTP (unused)",
          "org/apache/commons/logging/", "the commons-logging bridge (SLF4J 1.7)",
          "org/apache/http/", "Apache HttpClient (a second HTTP client)",
          "com/squareup/javapoet/", "JavaPoet (an annotation processor's, unused)",
          "org/slf4j/impl/", "an SLF4J 1.x binding");

  private static List<String> entries;
  private static JarFile jar;

  @BeforeAll
  static void open() throws IOException {
    jar = new JarFile(RepoRoot.find().resolve("cli/target/capstan.jar").toFile());
    entries = jar.stream().map(JarEntry::getName).toList();
  }

  @AfterAll
  static void close() throws IOException {
    jar.close();
  }

  @Test
  void holdsNoSecondHttpClientNorUnusedLibraries() {
    List<String> found = new ArrayList<>();
    LEFT_OUT.forEach(
        (prefix, what) -> {
          if (entries.stream().anyMatch(e -> e.startsWith(prefix))) {
            found.add(what + " (" + prefix + ")");
          }
        });
    assertEquals(List.of(), found);
  }

  @Test
  void theKubernetesClientFindsExactlyOneHttpClient() throws IOException {
    JarEntry services =
        jar.getJarEntry("META-INF/services/io.fabric8.kubernetes.client.http.HttpClient$Factory");
    String providers = new String(jar.getInputStream(services).readAllBytes(), UTF_8);

    assertEquals(
        List.of("io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory"),
        providers
            .lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList());
  }

  @Test
  void holdsOneCopyOfEachSshAndLoggingLibrary() {
    assertEquals(
        List.of("META-INF/maven/org.apache.sshd/sshd-osgi/pom.properties"),
        entries.stream()
            .filter(
                e ->
                    e.startsWith("META-INF/maven/org.apache.sshd/") && e.endsWith("pom.properties"))
            .toList());
    assertEquals(
        List.of("META-INF/maven/org.slf4j/slf4j-api/pom.properties"),
        entries.stream()
            .filter(e -> e.startsWith("META-INF/maven/org.slf4j/") && e.endsWith("pom.properties"))
            .toList());
  }

  @Test
  void capstanReadsYamlWithOneParserOnly() throws IOException {
    // The Kubernetes client needs Jackson's YAML module (and so SnakeYAML) for its own helpers;
    // Capstan's code reads YAML through BoundedYaml (SnakeYAML Engine) only.
    List<String> users = new ArrayList<>();
    for (String name : entries) {
      if (name.startsWith("dev/capstan/") && name.endsWith(".class")) {
        String bytes =
            new String(jar.getInputStream(jar.getJarEntry(name)).readAllBytes(), ISO_8859_1);
        if (bytes.contains("com/fasterxml/jackson/dataformat/yaml/")
            || bytes.contains("org/yaml/snakeyaml/")) {
          users.add(name);
        }
      }
    }
    assertEquals(List.of(), users);
    assertTrue(entries.contains("dev/capstan/kube/BoundedYaml.class"));
  }
}
