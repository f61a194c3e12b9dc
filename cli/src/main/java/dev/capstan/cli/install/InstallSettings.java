package dev.capstan.cli.install;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Objects;

/**
 * What an install is made of besides deploy/: the namespace the engine runs in, the variant, and
 * the engine's image.
 *
 * @param namespace the engine's namespace (deploy/ uses capstan-system)
 * @param multiTenant the engine with impersonation rights, locked down, instead of cluster-admin
 * @param image the engine's image; null keeps the one deploy/install names
 */
@RecordBuilder
public record InstallSettings(String namespace, boolean multiTenant, String image)
    implements InstallSettingsBuilder.With {

  public static final String DEFAULT_NAMESPACE = "capstan-system";

  public InstallSettings {
    Objects.requireNonNull(namespace, "namespace");
  }

  /** deploy/ as it is: single tenant in capstan-system with the image it names. */
  public static InstallSettings defaults() {
    return new InstallSettings(DEFAULT_NAMESPACE, false, null);
  }
}
