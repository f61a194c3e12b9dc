package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A strategic merge or JSON 6902 patch with an optional target selector. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Patch(@Required String patch, Selector target) {

  /** Selects the objects a patch applies to; every given field must match. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Selector(
      @JsonPropertyDescription("API group (a regular expression).") String group,
      @JsonPropertyDescription("API version (a regular expression).") String version,
      @JsonPropertyDescription("Kind (a regular expression).") String kind,
      @JsonPropertyDescription("Name (a regular expression).") String name,
      @JsonPropertyDescription("Namespace (a regular expression).") String namespace,
      @JsonPropertyDescription("A label selector, e.g. app=web,tier in (front,back).")
          String labelSelector,
      @JsonPropertyDescription("A selector of annotations, in label selector syntax.")
          String annotationSelector) {}
}
