package dev.capstan.applier.kustomize;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/**
 * The variables of a Kustomization's {@code postBuild}, already read: {@code substituteFrom} holds
 * the data of each ConfigMap and Secret that exists, in the order listed (Secret values decoded;
 * later sources win), {@code substitute} the inline values, which win over all sources. {@code
 * always} is {@code substituteStrategy: Always}: substitute (defaults such as {@code ${VAR:=x}})
 * even when there is no variable at all. {@code strict} fails the build on a variable that has
 * neither a value nor a default (Flux's StrictPostBuildSubstitutions) instead of substituting the
 * empty string.
 */
@RecordBuilder
public record PostBuildVariables(
    Map<String, String> substitute,
    List<Map<String, String>> substituteFrom,
    boolean always,
    boolean strict)
    implements PostBuildVariablesBuilder.With {

  public PostBuildVariables {
    substitute = substitute == null ? Map.of() : Map.copyOf(substitute);
    substituteFrom =
        substituteFrom == null ? List.of() : substituteFrom.stream().map(Map::copyOf).toList();
  }

  /** Variables substituted leniently: a variable without a value becomes the empty string. */
  public PostBuildVariables(
      Map<String, String> substitute, List<Map<String, String>> substituteFrom, boolean always) {
    this(substitute, substituteFrom, always, false);
  }

  /** Values are variables (some from Secrets): never shown. */
  @Override
  public String toString() {
    return "PostBuildVariables["
        + substitute.size()
        + " inline, "
        + substituteFrom.size()
        + " sources, always="
        + always
        + ", strict="
        + strict
        + "]";
  }
}
