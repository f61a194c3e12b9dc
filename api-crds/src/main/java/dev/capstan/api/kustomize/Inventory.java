package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/** The objects a Kustomization applied at its last successful apply. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Inventory(List<InventoryEntry> entries) {}
