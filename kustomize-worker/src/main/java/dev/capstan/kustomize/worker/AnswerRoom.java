package dev.capstan.kustomize.worker;

/**
 * Room in the JVM's memory for the answers of builds, shared by every worker of a pool: an answer
 * is read only once there is room for it, so that builds running at once cannot fill the heap
 * between them, whatever each one's own bound.
 */
public interface AnswerRoom {
  /** Never waits: for one build at a time (the command line). */
  AnswerRoom UNBOUNDED =
      new AnswerRoom() {
        @Override
        public boolean take(long bytes, long deadlineNanos) {
          return true;
        }

        @Override
        public void give(long bytes) {
          // nothing was taken
        }
      };

  /**
   * Takes room for an answer of {@code bytes}, waiting at most until {@code deadlineNanos} (of
   * {@link System#nanoTime()}).
   *
   * @return false when there was no room in time, or there never will be
   */
  boolean take(long bytes, long deadlineNanos) throws InterruptedException;

  /** Gives back room taken for an answer, once it is no longer held. */
  void give(long bytes);
}
