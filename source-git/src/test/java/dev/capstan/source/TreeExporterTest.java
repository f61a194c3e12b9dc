package dev.capstan.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TreeExporterTest {

  @ParameterizedTest
  @CsvSource({
    "a/link, target, true",
    "a/link, ../b/c, true",
    "a/link, ./x/../y, true",
    "link, ., true",
    "link, .., false",
    "a/link, ../../etc/passwd, false",
    "link, /etc/passwd, false",
    "a/b/link, ../../../x, false",
    "a/link, x/../../../y, false"
  })
  void symlinkTextMustStayInsideTheTree(String path, String target, boolean inside) {
    assertEquals(inside, TreeExporter.staysInside(path, target));
  }
}
