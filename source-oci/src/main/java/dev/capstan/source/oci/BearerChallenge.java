package dev.capstan.source.oci;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A registry's {@code WWW-Authenticate} challenge: {@code Bearer realm="…",service="…",scope="…"}
 * (the token flow of the distribution specification) or {@code Basic}.
 */
record BearerChallenge(String scheme, String realm, String service, String scope) {

  private static final Pattern PARAM = Pattern.compile("([A-Za-z]+)=\"([^\"]*)\"");

  static Optional<BearerChallenge> parse(String header) {
    if (header == null || header.length() > 4096) {
      return Optional.empty();
    }
    String trimmed = header.trim();
    int space = trimmed.indexOf(' ');
    String scheme = (space < 0 ? trimmed : trimmed.substring(0, space)).toLowerCase(Locale.ROOT);
    Map<String, String> params = new HashMap<>();
    Matcher m = PARAM.matcher(space < 0 ? "" : trimmed.substring(space + 1));
    while (m.find()) {
      params.put(m.group(1).toLowerCase(Locale.ROOT), m.group(2));
    }
    if (!scheme.equals("bearer") && !scheme.equals("basic")) {
      return Optional.empty();
    }
    return Optional.of(
        new BearerChallenge(
            scheme, params.get("realm"), params.get("service"), params.get("scope")));
  }

  boolean isBasic() {
    return scheme.equals("basic");
  }
}
