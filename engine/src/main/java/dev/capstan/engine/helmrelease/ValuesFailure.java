package dev.capstan.engine.helmrelease;

/**
 * A HelmRelease's values could not be composed: an object or key of {@code valuesFrom} is missing,
 * cannot be read, is too large or is not values. The message names the object and key, in Flux's
 * words, and never a value.
 */
public final class ValuesFailure extends Exception {
  private static final long serialVersionUID = 1L;

  ValuesFailure(String message) {
    super(message, null, false, false);
  }
}
