package dev.capstan.source.helm;

import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.util.Optional;

/**
 * What a server said identifies the index it sent ({@code ETag}, {@code Last-Modified}), kept with
 * the artifact so that the next download asks only for a changed index: an unchanged one is one
 * request answered 304, with nothing read or parsed.
 */
record Validators(String etag, String lastModified) {
  static final Validators NONE = new Validators(null, null);

  /** Longer values are not kept: they are no validators a server would send. */
  private static final int MAX_LENGTH = 256;

  private static final String SEPARATOR = "\n";

  boolean any() {
    return etag != null || lastModified != null;
  }

  static Validators of(HttpHeaders headers) {
    return new Validators(
        usable(headers.firstValue("ETag")), usable(headers.firstValue("Last-Modified")));
  }

  /** The request asking for the index only when it differs from the one these identify. */
  HttpRequest.Builder ask(HttpRequest.Builder request) {
    if (etag != null) {
      request.header("If-None-Match", etag);
    }
    if (lastModified != null) {
      request.header("If-Modified-Since", lastModified);
    }
    return request;
  }

  /** As the store's state keeps them (its remote id). */
  String encode() {
    return (etag == null ? "" : etag) + SEPARATOR + (lastModified == null ? "" : lastModified);
  }

  static Validators decode(String encoded) {
    if (encoded == null || !encoded.contains(SEPARATOR)) {
      return NONE;
    }
    int at = encoded.indexOf(SEPARATOR);
    return new Validators(
        usable(Optional.of(encoded.substring(0, at))),
        usable(Optional.of(encoded.substring(at + 1))));
  }

  /** A value a header may carry back: short, printable ASCII. */
  private static String usable(Optional<String> value) {
    return value
        .filter(v -> !v.isEmpty() && v.length() <= MAX_LENGTH)
        .filter(v -> v.chars().allMatch(c -> c >= 0x20 && c < 0x7f))
        .orElse(null);
  }
}
