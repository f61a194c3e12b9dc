package dev.capstan.kustomize.worker;

import java.security.SecureRandom;

/**
 * The ids of a worker's requests: random 64-bit numbers, never 0 (the hello's). An answer must
 * carry its request's id, and nothing in the worker can guess the next one to forge an answer.
 */
final class RequestIds {
  private final SecureRandom random = new SecureRandom();

  long next() {
    long id;
    do {
      id = random.nextLong();
    } while (id == 0);
    return id;
  }
}
