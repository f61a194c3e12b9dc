package dev.capstan.cli.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void alignsColumnsThreeSpacesApartWithoutTrailingBlanks() {
    Table table =
        new Table(List.of("NAME", "READY", "STATUS"))
            .add(List.of("infra", "True", "Applied revision: main@sha1:abc"))
            .add(List.of("application", "False", ""));
    assertEquals(
        List.of(
            "NAME          READY   STATUS",
            "infra         True    Applied revision: main@sha1:abc",
            "application   False"),
        table.lines());
  }

  @Test
  void multiLineCellsBecomeOneLine() {
    Table table = new Table(List.of("NAME", "STATUS")).add(List.of("a", "first\n  second\n"));
    assertEquals("a      first; second", table.lines().get(1));
  }

  @Test
  void rejectsRowsOfTheWrongWidth() {
    Table table = new Table(List.of("A", "B"));
    assertThrows(IllegalArgumentException.class, () -> table.add(List.of("only one")));
  }
}
