package dev.capstan.engine.kustomization;

import dev.capstan.applier.apply.ApplyPolicy;
import java.util.Objects;

/**
 * What the engine's operator set for every Kustomization (Flux's controller flags and feature
 * gates).
 *
 * @param strictSubstitutions a postBuild variable with neither a value nor a default fails the
 *     build
 * @param cancelWaits new input ends a health wait in progress at once; otherwise the wait goes on
 *     until it ends, and the new input is reconciled right after
 * @param applyPolicy the custom apply stage and the field managers taken over
 * @param ageKeys the engine's own age keys, for decryption without {@code secretRef}
 */
public record PipelineSettings(
    boolean strictSubstitutions,
    boolean cancelWaits,
    ApplyPolicy applyPolicy,
    GlobalAgeKeys ageKeys) {

  /** Flux's defaults, with waits cancelled by new input (Capstan's default). */
  public static final PipelineSettings DEFAULTS =
      new PipelineSettings(true, true, ApplyPolicy.DEFAULT, GlobalAgeKeys.NONE);

  public PipelineSettings {
    Objects.requireNonNull(applyPolicy, "applyPolicy");
    Objects.requireNonNull(ageKeys, "ageKeys");
  }
}
