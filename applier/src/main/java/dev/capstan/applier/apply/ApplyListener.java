package dev.capstan.applier.apply;

import dev.capstan.applier.common.ObjectResult;

/** Told about each object's outcome as soon as it is known; called from worker threads. */
@FunctionalInterface
public interface ApplyListener {

  ApplyListener NONE = result -> {};

  void onResult(ObjectResult result);
}
