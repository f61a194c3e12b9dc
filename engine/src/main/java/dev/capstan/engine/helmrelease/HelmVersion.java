package dev.capstan.engine.helmrelease;

import java.math.BigInteger;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chart version as Helm and Flux's helm-controller read one (Masterminds semver's default, loose
 * reading: a leading {@code v}, a missing minor or patch and leading zeros allowed, each number up
 * to 2^64-1), without its build metadata: what an OCI tag and a recorded chart version are compared
 * by, and what the chart worker pins an OCI chart's version to.
 */
record HelmVersion(BigInteger major, BigInteger minor, BigInteger patch, String preRelease) {
  private static final Pattern LOOSE =
      Pattern.compile(
          "v?([0-9]+)(\\.[0-9]+)?(\\.[0-9]+)?"
              + "(-([0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*))?"
              + "(\\+([0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*))?");
  private static final int MAX_LENGTH = 256;
  private static final BigInteger MAX_NUMBER = BigInteger.TWO.pow(64).subtract(BigInteger.ONE);

  /** {@code text} read as a version; empty when Helm would refuse it. */
  static Optional<HelmVersion> parse(String text) {
    if (text == null || text.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    Matcher m = LOOSE.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    BigInteger major = new BigInteger(m.group(1));
    BigInteger minor =
        m.group(2) == null ? BigInteger.ZERO : new BigInteger(m.group(2).substring(1));
    BigInteger patch =
        m.group(3) == null ? BigInteger.ZERO : new BigInteger(m.group(3).substring(1));
    String pre = m.group(5) == null ? "" : m.group(5);
    if (tooLarge(major) || tooLarge(minor) || tooLarge(patch) || !validPreRelease(pre)) {
      return Optional.empty();
    }
    return Optional.of(new HelmVersion(major, minor, patch, pre));
  }

  /** This version with build metadata {@code build}, written as Helm writes a version. */
  String withBuild(String build) {
    return major
        + "."
        + minor
        + "."
        + patch
        + (preRelease.isEmpty() ? "" : "-" + preRelease)
        + (build.isEmpty() ? "" : "+" + build);
  }

  private static boolean tooLarge(BigInteger number) {
    return number.compareTo(MAX_NUMBER) > 0;
  }

  /** No empty identifier, and no number with a leading zero, as semantic versioning asks. */
  private static boolean validPreRelease(String pre) {
    if (pre.isEmpty()) {
      return true;
    }
    for (String part : pre.split("\\.", -1)) {
      boolean numeric = !part.isEmpty() && part.chars().allMatch(Character::isDigit);
      if (part.isEmpty() || (numeric && part.length() > 1 && part.charAt(0) == '0')) {
        return false;
      }
    }
    return true;
  }
}
