package dev.capstan.engine.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.engine.core.NamespacedName;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CacheViewTest {
  private final CacheView view = new CacheView();
  private final NamespacedName key = new NamespacedName("team", "app");

  @Test
  void beforeTheControllersStartedEveryReadFindsNothing() {
    assertEquals(Optional.empty(), view.kustomization(key));
    assertEquals(Optional.empty(), view.gitRepository(key));
    assertEquals(List.of(), List.copyOf(view.kustomizations()));
  }
}
