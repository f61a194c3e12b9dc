package dev.capstan.engine.kustomization;

import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;

/** The apply stage as the pipeline sees it: the applier's staged server-side apply. */
@FunctionalInterface
public interface ApplyStage {
  ApplyResult apply(ApplyRequest request);
}
