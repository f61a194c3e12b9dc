package dev.capstan.cli.install;

import picocli.CommandLine.Option;

/** The options that choose what is installed, shared by {@code install} and {@code bootstrap}. */
public final class InstallOptions {

  @Option(
      names = {"-n", "--namespace"},
      defaultValue = InstallSettings.DEFAULT_NAMESPACE,
      paramLabel = "NS",
      description = "The namespace the engine runs in. Default: ${DEFAULT-VALUE}.")
  String namespace;

  @Option(
      names = "--multi-tenant",
      description =
          "Install the locked-down engine that applies as each Kustomization's service account"
              + " (impersonation) instead of with cluster-admin.")
  boolean multiTenant;

  @Option(
      names = "--image",
      paramLabel = "REF",
      description = "The engine's image (default: the one deploy/install names).")
  String image;

  public InstallSettings settings() {
    return new InstallSettings(namespace, multiTenant, image);
  }
}
