package dev.capstan.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the version from the jar manifest, so that it is the one Maven built. */
final class CapstanVersion implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = CapstanMain.class.getPackage().getImplementationVersion();
    return new String[] {"capstan " + (version == null ? "development build" : version)};
  }
}
