package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SemverRange;
import dev.capstan.source.core.SourceException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What of an OCI repository is pulled, as Flux's {@code spec.ref}: the digest wins over semver,
 * semver over the tag, and nothing means the tag {@code latest}.
 */
public record OciRef(String tag, String semver, String semverFilter, String digest) {

  public static final String DEFAULT_TAG = "latest";

  public static OciRef latest() {
    return new OciRef(null, null, null, null);
  }

  public static OciRef tag(String tag) {
    return new OciRef(tag, null, null, null);
  }

  /** Which of the fields decides. */
  public enum Kind {
    DIGEST,
    SEMVER,
    TAG
  }

  public Kind kind() {
    if (present(digest)) {
      return Kind.DIGEST;
    }
    return present(semver) ? Kind.SEMVER : Kind.TAG;
  }

  /** The tag asked for, {@code latest} when none is. */
  public String effectiveTag() {
    return present(tag) ? tag : DEFAULT_TAG;
  }

  /**
   * Checks the fields before anything is sent.
   *
   * @throws SourceException {@link FailureReason#INVALID_REF} naming the field
   */
  public void validate() {
    switch (kind()) {
      case DIGEST -> {
        if (!OciUrl.DIGEST.matcher(digest).matches()) {
          throw invalid("spec.ref.digest must be sha256: and 64 lower-case hex digits");
        }
      }
      case SEMVER -> {
        SemverRange.parse(semver);
        filter();
      }
      case TAG -> {
        if (!OciUrl.TAG.matcher(effectiveTag()).matches()) {
          throw invalid("spec.ref.tag '" + effectiveTag() + "' is not a valid OCI tag");
        }
      }
    }
  }

  /** The semverFilter as a pattern that a whole tag must match; null when none is given. */
  Pattern filter() {
    if (!present(semverFilter)) {
      return null;
    }
    if (semverFilter.length() > 1024) {
      throw invalid("spec.ref.semverFilter is longer than 1024 characters");
    }
    try {
      return Pattern.compile(semverFilter);
    } catch (PatternSyntaxException e) {
      throw invalid("spec.ref.semverFilter is not a valid regular expression");
    }
  }

  /** For messages: {@code tag 'v1'}, {@code semver '>=1'}, {@code digest 'sha256:…'}. */
  public String describe() {
    return switch (kind()) {
      case DIGEST -> "digest '" + digest + "'";
      case SEMVER -> "semver '" + semver + "'";
      case TAG -> "tag '" + effectiveTag() + "'";
    };
  }

  private static boolean present(String value) {
    return value != null && !value.isEmpty();
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_REF, message);
  }
}
