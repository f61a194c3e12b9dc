package dev.capstan.engine.pipeline;

import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;

/** The apply stage as the pipeline sees it: the applier's staged server-side apply. */
@FunctionalInterface
public interface ApplyStage {
  ApplyResult apply(ApplyRequest request);
}
