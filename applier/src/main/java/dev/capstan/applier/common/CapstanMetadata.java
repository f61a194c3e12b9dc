package dev.capstan.applier.common;

/** Names of the annotations and the field manager Capstan writes or reads on applied objects. */
public final class CapstanMetadata {

  /** Server-side apply field manager for every write Capstan makes. */
  public static final String FIELD_MANAGER = "capstan";

  /** Digest of the manifest last applied; equal digest plus intact ownership means no write. */
  public static final String APPLIED_DIGEST = "capstan.dev/applied-digest";

  /** {@code capstan.dev/prune: disabled} keeps an object when it leaves the inventory. */
  public static final String PRUNE = "capstan.dev/prune";

  public static final String PRUNE_DISABLED = "disabled";

  private CapstanMetadata() {}
}
