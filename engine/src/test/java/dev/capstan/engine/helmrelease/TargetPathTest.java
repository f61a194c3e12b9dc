package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A value set at a targetPath as helm's --set sets it, within the subset and bounds Flux uses. */
class TargetPathTest {

  @Test
  void valuesAreTypedAsHelmsSetTypesThem() throws Exception {
    assertEquals(Boolean.TRUE, TargetPath.value("TRUE"));
    assertEquals(Boolean.FALSE, TargetPath.value("false"));
    assertEquals(null, TargetPath.value("Null"));
    assertEquals(0L, TargetPath.value("0"));
    assertEquals(-12L, TargetPath.value("-12"));
    assertEquals("012", TargetPath.value("012"));
    assertEquals("1.5", TargetPath.value("1.5"));
    assertEquals("99999999999999999999", TargetPath.value("99999999999999999999"));
    assertEquals("true", TargetPath.value("\"true\""));
    assertEquals("x", TargetPath.value("'\"x\"'"));
    assertEquals("a,b", TargetPath.value("a\\,b"));
    assertEquals(List.of(1L, "b", true), TargetPath.value("{1,b,true}"));
    assertEquals(List.of("1", "b"), TargetPath.value("'{1,b}'"));
  }

  @Test
  void pathsDescendIntoMapsAndListsAndKeepEscapedDots() throws Exception {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("keep", "me");

    TargetPath.set(values, "a.b\\.c.d", "1", false);
    TargetPath.set(values, "list[2].name", "x", false);
    TargetPath.set(values, "list[0]", "y", true);
    TargetPath.set(values, "matrix[0][1]", "z", false);

    assertEquals("me", values.get("keep"));
    assertEquals(Map.of("b.c", Map.of("d", 1L)), values.get("a"));
    assertEquals(Arrays.asList("y", null, Map.of("name", "x")), values.get("list"));
    assertEquals(List.of(Arrays.asList(null, "z")), values.get("matrix"));
  }

  @Test
  void badPathsAndValuesAreRefusedWithoutQuotingTheValue() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("s", "text");
    values.put("l", new ArrayList<>());

    for (String path : List.of("a..b", "a.", "[0]", "a[x]", "a[1", "a[65537]", "s.x", "l.x")) {
      TargetPath.Refused refused =
          assertThrows(TargetPath.Refused.class, () -> TargetPath.set(values, path, "v", false));
      assertTrue(refused.getMessage().contains(path), refused.getMessage());
    }
    TargetPath.Refused comma =
        assertThrows(
            TargetPath.Refused.class, () -> TargetPath.set(values, "p", "secret,x=1", false));
    assertTrue(!comma.getMessage().contains("secret"), comma.getMessage());
  }
}
