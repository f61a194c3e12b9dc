package dev.capstan.api.kustomize;

/**
 * One applied object, in Flux's inventory format: {@code id} is
 * {@code namespace_name_group_kind} and {@code v} the API version.
 */
public record InventoryEntry(String id, String v) {}
