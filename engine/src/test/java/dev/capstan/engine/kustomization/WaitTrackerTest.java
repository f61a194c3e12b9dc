package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.WaitTracker.Change;
import dev.capstan.engine.kustomization.WaitTracker.Inputs;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What new input a reconcile brings to a wait in progress. */
class WaitTrackerTest {
  private static final Inputs WAITED = new Inputs(2, "main@sha1:1", "t1", 0);

  @Test
  void theSameInputsAreNoChange() {
    assertEquals(Change.NONE, WAITED.changeTo(new Inputs(2, "main@sha1:1", "t1", 0)));
  }

  @Test
  void eachKindOfNewInputIsNamedTheRevisionFirst() {
    assertEquals(Change.REVISION, WAITED.changeTo(new Inputs(3, "main@sha1:2", "t2", 1)));
    assertEquals(Change.SPEC, WAITED.changeTo(new Inputs(3, "main@sha1:1", "t2", 1)));
    assertEquals(Change.REQUEST, WAITED.changeTo(new Inputs(2, "main@sha1:1", "t2", 1)));
    assertEquals(Change.CONFIGURATION, WAITED.changeTo(new Inputs(2, "main@sha1:1", "t1", 1)));
  }

  @Test
  void configurationChangesAreCountedPerKustomizationAndForgotten() {
    WaitTracker waits = new WaitTracker();
    NamespacedName app = new NamespacedName("team", "app");
    waits.inputChanged(app, "ConfigMap/team/settings");
    waits.inputChanged(app, "Secret/team/keys");

    assertEquals(2, waits.configChanges(app));
    assertEquals(Optional.of("Secret/team/keys"), waits.lastConfigChange(app));
    assertEquals(0, waits.configChanges(new NamespacedName("team", "other")));
    waits.forget(app);
    assertEquals(0, waits.configChanges(app));
  }
}
