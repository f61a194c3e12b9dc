package dev.capstan.cli.migrate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The YAML fixtures under resources/migrate as the objects a migration reads. */
final class MigrationFixtures {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private MigrationFixtures() {}

  static List<Manifest> load(String name) {
    List<Manifest> objects = new ArrayList<>();
    for (String document : read(name).split("(?m)^---$")) {
      if (document.lines().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
        continue;
      }
      GenericKubernetesResource object =
          SERIALIZATION.unmarshal(document, GenericKubernetesResource.class);
      objects.add(new Manifest(FluxKind.named(object.getKind()).orElseThrow(), object));
    }
    return objects;
  }

  static Manifest named(List<Manifest> objects, String kind, String name) {
    return objects.stream()
        .filter(o -> o.kind().kind.equals(kind) && o.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static String read(String name) {
    try (InputStream in = MigrationFixtures.class.getResourceAsStream("/migrate/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
