package dev.capstan.engine.helmrelease;

import java.nio.file.Path;

/**
 * A HelmRelease's chart, as its source stored it: the artifact's revision (a HelmChart's is the
 * chart's version, an OCIRepository's {@code <tag>@<digest>}), the artifact's digest, and where the
 * packaged chart lies in the engine's store.
 *
 * @param source {@code Kind/namespace/name} of the HelmChart or OCIRepository
 * @param root the stored tree of the artifact (the render reads nothing outside it)
 * @param chart the chart archive or directory, relative to {@code root}
 */
public record ChartArtifact(
    String source, String revision, String digest, Path root, String chart) {

  /**
   * The chart version the revision names, as a release record keeps it: an OCIRepository's revision
   * without its {@code @<digest>}, with {@code _} read as {@code +} (an OCI tag cannot hold a
   * {@code +}, so {@code helm push} writes a version's build metadata with {@code _}). Comparing
   * the record's version with the whole revision would never match for an OCIRepository, and every
   * reconcile would release the chart again.
   */
  public String version() {
    int at = revision.indexOf('@');
    return at < 0 ? revision : revision.substring(0, at).replace('_', '+');
  }
}
