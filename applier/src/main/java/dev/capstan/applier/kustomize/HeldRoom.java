package dev.capstan.applier.kustomize;

/**
 * Room in the JVM's heap that a build's result holds for its objects (see {@link BuildLimits}):
 * closed once they are no longer needed, after the apply, so that other builds may use it. Closing
 * twice gives the room back once.
 */
public interface HeldRoom extends AutoCloseable {
  /** Nothing held: a result that was not charged (tests, a printed build). */
  HeldRoom NONE = () -> {};

  @Override
  void close();
}
