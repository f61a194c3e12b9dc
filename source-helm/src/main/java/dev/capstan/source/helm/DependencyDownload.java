package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.time.Instant;

/**
 * A chart directory's dependency on a repository, downloaded as Flux resolves it: through the
 * HelmRepository of the namespace with the dependency's URL ({@link DependencyRepositories}), the
 * version its range picks in that repository's stored index, downloaded and checked as a chart of
 * the repository is. Any failure is the dependency's, named.
 */
final class DependencyDownload implements ChartDirectory.Remote {
  private final DependencyRepositories repositories;
  private final ChartLookup lookup;
  private final RepositoryDownload download;
  private final ChartLimits limits;
  private final Instant deadline;

  DependencyDownload(
      DependencyRepositories repositories,
      ChartLookup lookup,
      RepositoryDownload download,
      ChartLimits limits,
      Instant deadline) {
    this.repositories = repositories;
    this.lookup = lookup;
    this.download = download;
    this.limits = limits;
    this.deadline = deadline;
  }

  @Override
  public ChartDirectory.Downloaded fetch(ChartYaml.Dependency dependency) {
    String named =
        "dependency '"
            + dependency.name()
            + "' of repository '"
            + Redaction.scrubUrl(dependency.repository())
            + "'";
    if (dependency.repository().isEmpty() || dependency.repository().startsWith("oci://")) {
      throw failed(
          named
              + (dependency.repository().isEmpty()
                  ? " is not in charts/ and names no repository"
                  : ": OCI repositories are not supported yet"));
    }
    DependencyRepositories.Repository repository =
        repositories
            .find(dependency.repository())
            .orElseThrow(
                () ->
                    failed(
                        named
                            + ": no HelmRepository of the namespace has this URL (or it has no"
                            + " index yet)"));
    try {
      ChartVersion version =
          lookup
              .find(repository.index(), dependency.name(), dependency.version())
              .orElseThrow(
                  () ->
                      failed(
                          named
                              + ": no version matches '"
                              + dependency.version()
                              + "' in the repository's index"));
      String url = RemoteChart.url(repository.request(), version);
      RemoteChart.Fetched fetched =
          RemoteChart.fetch(download, repository.request(), url, version, limits, deadline);
      return new ChartDirectory.Downloaded(version.version(), fetched.tgz());
    } catch (SourceException e) {
      if (e.reason() == FailureReason.DEPENDENCY_BUILD_FAILED) {
        throw e;
      }
      // A server's answer may echo what it was sent: the repository's credentials are cut out.
      throw failed(named + ": " + HelmChartSource.scrubbed(e.getMessage(), repository.request()));
    } catch (IOException e) {
      throw failed(named + ": the download failed (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static SourceException failed(String message) {
    return new SourceException(FailureReason.DEPENDENCY_BUILD_FAILED, message);
  }
}
