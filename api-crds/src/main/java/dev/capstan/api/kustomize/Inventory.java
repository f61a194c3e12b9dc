package dev.capstan.api.kustomize;

import java.util.List;

/** The objects a Kustomization applied at its last successful apply. */
public record Inventory(List<InventoryEntry> entries) {}
