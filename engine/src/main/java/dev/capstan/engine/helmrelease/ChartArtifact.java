package dev.capstan.engine.helmrelease;

import java.nio.file.Path;

/**
 * A HelmRelease's chart, as its source stored it: the chart's version (the artifact's revision),
 * the artifact's digest, and where the packaged chart lies in the engine's store.
 *
 * @param source {@code Kind/namespace/name} of the HelmChart or OCIRepository
 * @param root the stored tree of the artifact (the render reads nothing outside it)
 * @param chart the chart archive or directory, relative to {@code root}
 */
public record ChartArtifact(
    String source, String revision, String digest, Path root, String chart) {}
