package dev.capstan.applier.apply;

import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.kube.ObjectRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Collects per-object results of one apply, in revision order, telling the listener as it goes. */
final class RunResults {

  private final Map<ObjectRef, ObjectResult> byRef = new LinkedHashMap<>();
  private final Map<ObjectRef, String> answers = new ConcurrentHashMap<>();
  private final ApplyListener listener;

  RunResults(List<DesiredObject> order, ApplyListener listener) {
    this.listener = listener;
    order.forEach(d -> byRef.put(d.ref().withoutVersion(), null));
  }

  void record(ObjectResult result) {
    synchronized (byRef) {
      byRef.put(result.ref().withoutVersion(), result);
    }
    listener.onResult(result);
  }

  /** Marks every object without an outcome yet as skipped, naming why. */
  void skipRemaining(List<DesiredObject> order, String reason) {
    for (DesiredObject d : order) {
      boolean open;
      synchronized (byRef) {
        open = byRef.get(d.ref().withoutVersion()) == null;
      }
      if (open) {
        record(new ObjectResult(d.ref(), Action.SKIPPED, reason));
      }
    }
  }

  /** Keeps the API server's answer to the apply that wrote {@code ref}. */
  void answered(ObjectRef ref, String answer) {
    answers.put(ref.withoutVersion(), answer);
  }

  /** The answers kept, by object without its version. */
  Map<ObjectRef, String> answers() {
    return answers;
  }

  boolean anyFailed() {
    synchronized (byRef) {
      return byRef.values().stream().anyMatch(r -> r != null && r.failed());
    }
  }

  List<ObjectResult> inOrder() {
    synchronized (byRef) {
      List<ObjectResult> out = new ArrayList<>();
      byRef
          .values()
          .forEach(
              r -> {
                if (r != null) {
                  out.add(r);
                }
              });
      return out;
    }
  }
}
