package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Kustomization's spec.path through directories named with any class of characters the file
 * system allows, fetched from a Git server into an artifact: each builds (its kustomization also
 * reaching an oddly named base through ../) and applies.
 */
class PathNamesIT extends EngineTestBase {
  /** One name per class of characters; the last mixes them all. */
  private static final List<String> NAMES =
      List.of(
          "a b",
          "at@sign",
          "plus+sign",
          "tilde~",
          "per%cent",
          "com,ma",
          "é-accent",
          "a b@c+d~e%f,gé名");

  @Test
  void everyClassOfNameBuildsAndApplies() {
    Map<String, String> files = new HashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      String name = NAMES.get(i);
      String app = name + "/" + name + "/";
      files.put(app + "kustomization.yaml", "resources:\n- cm.yaml\n- \"../base " + name + "\"\n");
      files.put(app + "cm.yaml", Manifests.configMap("own-" + i, name));
      String base = name + "/base " + name + "/";
      files.put(base + "kustomization.yaml", "resources:\n- cm.yaml\n");
      files.put(base + "cm.yaml", Manifests.configMap("base-" + i, name));
    }
    String revision = git.commit(files);
    engine.gitRepository("repo", git.url());
    for (int i = 0; i < NAMES.size(); i++) {
      engine.kustomization("names-" + i, "repo", "./" + NAMES.get(i) + "/" + NAMES.get(i), "");
    }

    for (int i = 0; i < NAMES.size(); i++) {
      var ready =
          engine.awaitCondition(
              "names-" + i, "Ready", Duration.ofSeconds(90), c -> "True".equals(c.getStatus()));
      assertEquals("Applied revision: " + revision, ready.getMessage(), NAMES.get(i));
      assertEquals(NAMES.get(i), value("own-" + i));
      assertEquals(NAMES.get(i), value("base-" + i));
    }
  }

  private static String value(String configMap) {
    ConfigMap applied =
        engine.client.configMaps().inNamespace(engine.namespace).withName(configMap).get();
    return applied == null ? "(not applied)" : applied.getData().get("value");
  }
}
