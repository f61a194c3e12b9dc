package dev.capstan.source.core;

/**
 * The signatures an artifact's revision was verified with.
 *
 * @param mode the {@code spec.verify.mode} checked, as spelled there (HEAD, Tag, TagAndHEAD)
 * @param message names each verified object and the fingerprint of the key that signed it
 */
public record Verified(String mode, String message) {}
