package dev.capstan.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --concurrency}: how many requests a command keeps in flight at once. Each command gives
 * its own default (a dry-run diff asks less of the API server than an apply), which the help shows.
 */
public final class ConcurrencyOption {

  @Option(
      names = "--concurrency",
      description = "Requests in flight at once. Default: ${DEFAULT-VALUE}.")
  int concurrency; // the field's name is the help's label: <concurrency>

  public ConcurrencyOption(int defaultRequests) {
    this.concurrency = defaultRequests;
  }

  public int requests() {
    return concurrency;
  }
}
