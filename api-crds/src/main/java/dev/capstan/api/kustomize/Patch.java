package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.generator.annotation.Required;

/** A strategic merge or JSON 6902 patch with an optional target selector. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Patch(@Required String patch, Selector target) {

  /** Selects the objects a patch applies to; every given field must match. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Selector(
      String group,
      String version,
      String kind,
      String name,
      String namespace,
      String labelSelector,
      String annotationSelector) {}
}
