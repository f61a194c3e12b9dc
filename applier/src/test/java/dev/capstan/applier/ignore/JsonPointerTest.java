package dev.capstan.applier.ignore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JsonPointerTest {

  @Test
  void readsTokensAndUnescapesThem() {
    assertEquals(List.of("spec", "replicas"), JsonPointer.parse("/spec/replicas").segments());
    assertEquals(
        List.of("metadata", "annotations", "external-dns.alpha.kubernetes.io/hostname"),
        JsonPointer.parse("/metadata/annotations/external-dns.alpha.kubernetes.io~1hostname")
            .segments());
    assertEquals(List.of("a~b", ""), JsonPointer.parse("/a~0b/").segments());
    assertEquals(List.of(), JsonPointer.parse("").segments());
    assertEquals("/a~0b/c~1d", JsonPointer.parse("/a~0b/c~1d").toString());
  }

  @Test
  void refusesWhatIsNoPointerWithoutQuotingIt() {
    IllegalArgumentException noSlash =
        assertThrows(IllegalArgumentException.class, () -> JsonPointer.parse("spec.secret"));
    assertFalse(noSlash.getMessage().contains("secret"), noSlash.getMessage());
    assertThrows(IllegalArgumentException.class, () -> JsonPointer.parse("/a~2"));
    assertThrows(IllegalArgumentException.class, () -> JsonPointer.parse("/a~"));
    assertThrows(IllegalArgumentException.class, () -> JsonPointer.parse("/x".repeat(513)));
    assertThrows(IllegalArgumentException.class, () -> JsonPointer.parse("/x".repeat(65)));
  }

  @Test
  void getsRemovesAndSetsInMapsAndLists() {
    Map<String, Object> doc = document();
    JsonPointer image = JsonPointer.parse("/spec/containers/1/image");
    assertEquals(Optional.of("b:1"), image.get(doc));
    assertEquals(Optional.empty(), JsonPointer.parse("/spec/containers/2/image").get(doc));
    assertEquals(Optional.empty(), JsonPointer.parse("/spec/containers/01/image").get(doc));
    assertTrue(image.set(doc, "b:2"));
    assertEquals(Optional.of("b:2"), image.get(doc));
    assertTrue(JsonPointer.parse("/spec/replicas").remove(doc));
    assertFalse(JsonPointer.parse("/spec/replicas").remove(doc));
    assertFalse(JsonPointer.parse("/spec/none/x").set(doc, 1), "no parent, nothing set");
    assertTrue(JsonPointer.parse("").remove(doc));
    assertTrue(doc.isEmpty());
  }

  @Test
  void knowsWhatLiesWithinIt() {
    JsonPointer resources = JsonPointer.parse("/spec/containers/0/resources");
    assertTrue(JsonPointer.parse("/spec/containers/0/resources/limits").isWithin(resources));
    assertTrue(resources.isWithin(resources));
    assertFalse(JsonPointer.parse("/spec/containers/0").isWithin(resources));
    assertTrue(resources.isWithin(JsonPointer.parse("")));
  }

  private static Map<String, Object> document() {
    List<Object> containers = new ArrayList<>();
    containers.add(new LinkedHashMap<>(Map.of("name", "a", "image", "a:1")));
    containers.add(new LinkedHashMap<>(Map.of("name", "b", "image", "b:1")));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("replicas", 2);
    spec.put("containers", containers);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("spec", spec);
    return doc;
  }
}
