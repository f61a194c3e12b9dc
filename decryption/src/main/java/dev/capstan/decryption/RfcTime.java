package dev.capstan.decryption;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** The lastmodified time as Go's time.RFC3339 prints it: the MAC's additional data. */
final class RfcTime {
  private static final DateTimeFormatter GO_RFC3339 =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

  private RfcTime() {}

  static String normalized(String lastModified) {
    try {
      return OffsetDateTime.parse(lastModified).format(GO_RFC3339);
    } catch (DateTimeParseException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED, "sops.lastmodified is not an RFC 3339 time");
    }
  }
}
