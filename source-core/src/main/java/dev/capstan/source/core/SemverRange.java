package dev.capstan.source.core;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Pattern;
import org.semver4j.RangesList;
import org.semver4j.RangesListFactory;
import org.semver4j.Semver;

/** A semver range matched against tag names; pre-releases only when the range names one. */
public final class SemverRange {

  /** Characters that may appear in a range; anything else is a typo, not a range. */
  private static final Pattern RANGE_CHARS = Pattern.compile("[0-9A-Za-z.+\\-*^~<>=|\\s]+");

  private static final Pattern PRERELEASE_BOUND = Pattern.compile("\\d+\\.\\d+\\.\\d+-");

  private final String text;
  private final RangesList ranges;

  private SemverRange(String text, RangesList ranges) {
    this.text = text;
    this.ranges = ranges;
  }

  public static SemverRange parse(String text) {
    if (text == null || text.isBlank() || !RANGE_CHARS.matcher(text).matches()) {
      throw invalid(text);
    }
    boolean includePrerelease = PRERELEASE_BOUND.matcher(text).find();
    RangesList ranges;
    try {
      ranges = RangesListFactory.create(text.trim(), includePrerelease);
    } catch (RuntimeException e) {
      throw invalid(text);
    }
    // The parser yields an empty list rather than failing on text it cannot read.
    if (ranges.get().isEmpty()) {
      throw invalid(text);
    }
    return new SemverRange(text, ranges);
  }

  /** The tag with the highest version in the range; tags that are not versions are skipped. */
  public Optional<String> highestMatch(Collection<String> tagNames) {
    Comparator<Version> byVersion = Comparator.comparing(Version::semver);
    return tagNames.stream()
        .map(SemverRange::version)
        .flatMap(Optional::stream)
        .filter(v -> ranges.isSatisfiedBy(v.semver()))
        .max(byVersion.thenComparing(v -> v.tag().startsWith("v") ? 0 : 1))
        .map(Version::tag);
  }

  /** Whether {@code version} is a version (a leading v allowed) within the range. */
  public boolean includes(String version) {
    String text = version.startsWith("v") ? version.substring(1) : version;
    return version(text).filter(v -> ranges.isSatisfiedBy(v.semver())).isPresent();
  }

  public String text() {
    return text;
  }

  private record Version(String tag, Semver semver) {}

  private static Optional<Version> version(String tag) {
    try {
      Semver v = Semver.parse(tag);
      return Optional.ofNullable(v).map(s -> new Version(tag, s));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static SourceException invalid(String text) {
    return new SourceException(FailureReason.INVALID_REF, "invalid semver range '" + text + "'");
  }
}
