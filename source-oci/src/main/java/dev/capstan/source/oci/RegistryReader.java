package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import java.nio.file.Path;
import java.util.List;

/**
 * The registry operations of one pull, for a source whose artifact is not an OCIRepository's (a
 * Helm chart in a registry): the same client, credentials, TLS, bounds, digest checks and cosign
 * verification as {@link OciSource}'s pulls. Made by {@link OciSource#reader}; good until the
 * pull's deadline.
 */
public final class RegistryReader {
  private final Registry registry;

  RegistryReader(Registry registry) {
    this.registry = registry;
  }

  /** The repository, as messages name it. */
  public String display() {
    return registry.client().url().display();
  }

  /** Every tag of the repository, following the registry's pages (bounded). */
  public List<String> tags() {
    return registry.tags();
  }

  /** The manifest digest a tag resolves to, by one HEAD request. */
  public String resolve(String tag) {
    return registry.resolve(tag);
  }

  /** The manifest stored under {@code digest}, its bytes hashed against it. */
  public Manifest manifest(String digest) {
    return registry.manifest(digest);
  }

  /**
   * Streams a blob into {@code file}, failing with {@code onMismatch} when it does not match its
   * descriptor and with {@code SizeLimitExceeded} when it is larger than {@code limit}.
   */
  public void download(Descriptor blob, Path file, long limit, FailureReason onMismatch) {
    registry.download(blob, file, limit, onMismatch);
  }

  /**
   * Checks the cosign signature of the manifest {@code digest} as an OCIRepository's is checked.
   *
   * @return the message of the {@code SourceVerified} condition
   */
  public String verify(String digest, String revision, CosignKeys keys) {
    return CosignVerifier.verify(registry, digest, revision, keys);
  }

  /**
   * Checks the keyless signature of the manifest {@code digest} as an OCIRepository's is checked.
   *
   * @return the message of the {@code SourceVerified} condition
   */
  public String verifyKeyless(String digest, String revision, KeylessPolicy policy) {
    return SigstoreVerifier.verify(registry, digest, revision, policy);
  }
}
