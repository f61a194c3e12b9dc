package dev.capstan.source.helm;

/**
 * What one chart may cost: a chart comes from a server or a repository the tenant names and is
 * hostile until read.
 *
 * @param archiveBytes a downloaded chart's {@code .tgz}; Flux's default bound (10 MiB) is the
 *     default
 * @param fileBytes one file of a chart, unpacked; Flux's default bound (5 MiB) is the default
 * @param unpackedBytes all files of a chart together, unpacked
 * @param entries the files and directories of a chart
 */
public record ChartLimits(long archiveBytes, long fileBytes, long unpackedBytes, int entries) {

  /** 10 MiB a chart archive, 5 MiB a file, 64 MiB unpacked, 10,000 entries. */
  public static final ChartLimits DEFAULTS =
      new ChartLimits(10L * 1024 * 1024, 5L * 1024 * 1024, 64L * 1024 * 1024, 10_000);
}
