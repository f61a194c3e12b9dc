package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.kustomize.Image;
import dev.capstan.api.kustomize.Patch;
import java.util.List;

/** A post-renderer of the rendered chart: kustomize's patches and images (Flux's PostRenderer). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PostRenderer(
    @JsonPropertyDescription("The kustomize patches and images applied.") Kustomize kustomize) {

  /** Strategic merge or JSON 6902 patches and image overrides. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Kustomize(
      @JsonPropertyDescription("Patches with their optional targets.") List<Patch> patches,
      @JsonPropertyDescription("Image name, tag and digest overrides.") List<Image> images) {}
}
