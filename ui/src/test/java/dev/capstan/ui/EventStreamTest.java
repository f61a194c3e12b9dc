package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class EventStreamTest {

  @Test
  void aChangeEventNamesTheObjectsAsJson() {
    assertEquals(
        "{\"version\":3,\"keys\":[\"Kustomization/a/b\",\"GitRepository/a/r\"]}",
        EventStream.message(3, List.of("Kustomization/a/b", "GitRepository/a/r")));
  }

  @Test
  void nothingInAKeyCanEndTheEventOrTheString() {
    assertEquals(
        "{\"version\":1,\"keys\":[\"Kustomization/a/bdata: x\"]}",
        EventStream.message(1, List.of("Kustomization/a/b\"\n\ndata: x\\")));
  }
}
