package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Values files merged in order, mappings key by key, as Flux merges them. */
class ValuesMergeTest {
  private static final Map<String, String> FILES =
      Map.of(
          "values.yaml", "replicas: 1\nimage:\n  repository: app\n  tag: stable\nlist: [a, b]\n",
          "values-prod.yaml", "replicas: 3\nimage:\n  tag: v2\nlist: [c]\n",
          "scalar.yaml", "image: none\n",
          "list.yaml", "- a\n- b\n");

  @Test
  void laterFilesOverrideEarlierOnesKeyByKeyAndListsAreReplaced() {
    ValuesMerge.Merged merged =
        ValuesMerge.merge(List.of("values.yaml", "values-prod.yaml"), ValuesMergeTest::file, false);

    assertEquals(
        "image:\n  repository: app\n  tag: v2\nlist:\n- c\nreplicas: 3\n",
        new String(merged.yaml(), StandardCharsets.UTF_8));
    assertEquals(List.of("values.yaml", "values-prod.yaml"), merged.used());
  }

  @Test
  void aScalarReplacesAMapping() {
    ValuesMerge.Merged merged =
        ValuesMerge.merge(List.of("values.yaml", "scalar.yaml"), ValuesMergeTest::file, false);
    assertTrue(new String(merged.yaml(), StandardCharsets.UTF_8).contains("image: none"));
  }

  @Test
  void aMissingFileIsAnErrorNamingItUnlessMissingFilesAreIgnored() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                ValuesMerge.merge(
                    List.of("values.yaml", "values-missing.yaml"), ValuesMergeTest::file, false));
    assertEquals(FailureReason.VALUES_FILES_FAILED, e.reason());
    assertEquals("no values file found at path 'values-missing.yaml'", e.getMessage());

    ValuesMerge.Merged ignored =
        ValuesMerge.merge(
            List.of("values.yaml", "values-missing.yaml"), ValuesMergeTest::file, true);
    assertEquals(List.of("values.yaml"), ignored.used());
  }

  @Test
  void aFileThatIsNoMappingIsRefusedByName() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> ValuesMerge.merge(List.of("list.yaml"), ValuesMergeTest::file, false));
    assertEquals("'list.yaml' is not a YAML mapping", e.getMessage());
  }

  private static Optional<byte[]> file(String path) {
    return Optional.ofNullable(FILES.get(path)).map(s -> s.getBytes(StandardCharsets.UTF_8));
  }
}
