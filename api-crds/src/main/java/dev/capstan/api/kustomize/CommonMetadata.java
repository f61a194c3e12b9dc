package dev.capstan.api.kustomize;

import java.util.Map;

/** Labels and annotations added to every object the Kustomization applies. */
public record CommonMetadata(Map<String, String> labels, Map<String, String> annotations) {}
