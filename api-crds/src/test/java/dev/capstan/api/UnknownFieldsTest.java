package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Objects written against a newer CRD than the engine's types (a field added in a later release,
 * installed before the engine is upgraded) are read, not refused: one such object must not stop the
 * engine from listing all the others, as Flux's controllers ignore fields they do not know.
 */
class UnknownFieldsTest {
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void aKustomizationWithFieldsFromANewerCrdIsRead() {
    Kustomization ks =
        serialization.unmarshal(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: apps, namespace: team}
            spec:
              interval: 10m
              prune: true
              sourceRef: {kind: GitRepository, name: fleet, futureField: 1}
              dependsOn: [{name: infra, futureField: x}]
              patches: [{patch: "{}", target: {kind: ConfigMap, futureField: y}}]
              futureSpecField: {nested: true}
            status:
              futureStatusField: []
              conditions: []
            """,
            Kustomization.class);

    assertEquals("infra", ks.getSpec().dependsOn().get(0).name());
    assertEquals("fleet", ks.getSpec().sourceRef().name());
  }

  @Test
  void aGitRepositoryWithFieldsFromANewerCrdIsRead() {
    GitRepository repo =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: fleet, namespace: team}
            spec: {url: "https://example.com/r.git", interval: 1m, ref: {branch: main, futureRef: 1}, future: 2}
            status: {artifact: {revision: "main@sha1:abc", futureArtifactField: 1}, future: 3}
            """,
            GitRepository.class);

    assertEquals("main", repo.getSpec().ref().branch());
  }

  @Test
  void everyRecordOfTheApiIgnoresUnknownFields() throws IOException, URISyntaxException {
    List<String> strict = new ArrayList<>();
    for (Class<?> type : apiClasses()) {
      JsonIgnoreProperties ignore = type.getAnnotation(JsonIgnoreProperties.class);
      if (type.isRecord() && (ignore == null || !ignore.ignoreUnknown())) {
        strict.add(type.getName());
      }
    }
    assertEquals(List.of(), strict, "records without @JsonIgnoreProperties(ignoreUnknown = true)");
  }

  private static List<Class<?>> apiClasses() throws IOException, URISyntaxException {
    Path root =
        Path.of(Kustomization.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> classes = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name =
            root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        try {
          classes.add(Class.forName(name, false, UnknownFieldsTest.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException(name, e);
        }
      }
    }
    assertTrue(classes.size() > 20, "found only " + classes.size() + " classes under " + root);
    return classes;
  }
}
