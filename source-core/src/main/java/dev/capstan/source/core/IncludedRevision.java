package dev.capstan.source.core;

/**
 * One included artifact an artifact was built with.
 *
 * @param name the included GitRepository's name
 * @param revision its revision at the time
 * @param digest its artifact's digest
 * @param toPath the directory of the artifact it was copied to
 */
public record IncludedRevision(String name, String revision, String digest, String toPath) {}
