package dev.capstan.applier.apply;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Waiting for work done on the executor. */
public final class Futures {

  private Futures() {}

  /**
   * The future's answer; what it threw is rethrown as it was (a KubernetesClientException when the
   * API server could not be reached, say), not wrapped in a CompletionException.
   */
  public static <R> R joined(CompletableFuture<R> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }
}
