package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/** Labels and annotations added to every object the Kustomization applies. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CommonMetadata(Map<String, String> labels, Map<String, String> annotations) {}
