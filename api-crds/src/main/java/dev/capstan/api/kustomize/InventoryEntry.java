package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One applied object, in Flux's inventory format: {@code id} is {@code namespace_name_group_kind}
 * and {@code v} the API version.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record InventoryEntry(String id, String v) {}
