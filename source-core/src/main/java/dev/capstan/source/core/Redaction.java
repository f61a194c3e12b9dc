package dev.capstan.source.core;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes credentials from text that may reach a log, a status, an Event or a terminal.
 *
 * <p>A password may hold {@code @}, {@code /}, {@code :} or spaces, typed raw instead of
 * percent-encoded, so where user information ends cannot be read from the syntax: the last
 * {@code @} that is followed by something host-like ends it. When in doubt more is removed, never
 * less: a line holding a URL and, further on, another {@code @} loses the text in between.
 */
public final class Redaction {

  private static final Pattern SCHEME_SEPARATOR = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://");

  /**
   * Schemes kept in front of a scrubbed URL. Any other word before {@code ://} may as well be the
   * start of an scp-like user name whose password holds {@code //}: it goes with the rest.
   */
  private static final Set<String> KNOWN_SCHEMES =
      Set.of(
          "http", "https", "ssh", "git", "file", "git+ssh", "ssh+git", "ftp", "ftps", "sftp",
          "rsync");

  private static final Pattern LINE = Pattern.compile("[^\\r\\n]*(?:\\r\\n|\\r|\\n|$)");

  /**
   * What may follow the {@code @} that ends user information: a host, then the end of the authority
   * (a port, a path, the URL's end), but not a revision such as {@code main@sha1:...}.
   */
  private static final Pattern HOST_AFTER_AT =
      Pattern.compile(
          "(?!sha(?:1|256):[0-9a-f])(?:\\[[^\\]\\s]*\\]|[^\\s/?#@'\"\\\\:\\[\\]<>]+)?"
              + "(?=[:/?#\\s'\"),;>\\]\\\\]|$)");

  /** What ends a word in free text, for scp-like URLs, which have no scheme to start them. */
  private static final String WORD_DELIMITERS = "'\"";

  private static final int MIN_SECRET_LENGTH = 4;

  private Redaction() {}

  /**
   * One URL on its own (e.g. a GitRepository's {@code spec.url}) without its user information:
   * {@code https://user:pw@host/x} becomes {@code https://host/x}, {@code user:pw@host:x} becomes
   * {@code host:x}. Everything between the scheme (or the start) and the last {@code @} goes.
   */
  public static String scrubUrl(String url) {
    if (url == null) {
      return null;
    }
    int start = userinfoStart(url);
    int at = url.lastIndexOf('@');
    return at >= start ? url.substring(0, start) + url.substring(at + 1) : url;
  }

  /**
   * Free text with URLs in it (a message, an error from a library): user information is removed
   * from every {@code scheme://} URL and from scp-like URLs that carry a password.
   */
  public static String scrubUrls(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(text.length());
    Matcher line = LINE.matcher(text);
    while (line.find() && line.start() < text.length()) {
      out.append(scrubLine(line.group()));
    }
    return scrubScpLike(out);
  }

  /**
   * Every occurrence of any of the secret values (of 4+ characters, surrounding whitespace ignored;
   * the longest first) replaced by {@code ***}, and then {@link #scrubUrls}. Values go first: they
   * are exact, and the URLs' scrubbing might otherwise cut one in two.
   */
  public static String scrub(String text, Collection<String> secretValues) {
    if (text == null) {
      return null;
    }
    String out = text;
    List<String> values =
        secretValues.stream()
            .filter(v -> v != null)
            .map(String::strip)
            .filter(v -> v.length() >= MIN_SECRET_LENGTH)
            .distinct()
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList();
    for (String value : values) {
      out = out.replace(value, "***");
    }
    return scrubUrls(out);
  }

  /** The Secret's values as text, for {@link #scrub}. */
  public static List<String> textOf(Collection<byte[]> values) {
    return values.stream().map(v -> new String(v, StandardCharsets.UTF_8)).toList();
  }

  /**
   * The user information of one URL, whole, split at its first {@code :} and percent-decoded:
   * values to scrub wherever a library prints them in another form.
   */
  public static List<String> userinfoOf(String url) {
    if (url == null) {
      return List.of();
    }
    int start = userinfoStart(url);
    int at = url.lastIndexOf('@');
    if (at < start) {
      return List.of();
    }
    String info = url.substring(start, at);
    Set<String> pieces = new LinkedHashSet<>();
    pieces.add(info);
    int colon = info.indexOf(':');
    if (colon >= 0) {
      pieces.add(info.substring(0, colon));
      pieces.add(info.substring(colon + 1));
    }
    for (String piece : List.copyOf(pieces)) {
      pieces.add(percentDecoded(piece));
    }
    return new ArrayList<>(pieces);
  }

  private static int userinfoStart(String url) {
    int lead = 0;
    while (lead < url.length() && Character.isWhitespace(url.charAt(lead))) {
      lead++;
    }
    Matcher scheme = SCHEME_SEPARATOR.matcher(url).region(lead, url.length());
    return scheme.lookingAt() && isKnown(scheme.group(1)) ? scheme.end() : lead;
  }

  private static boolean isKnown(String scheme) {
    return KNOWN_SCHEMES.contains(scheme.toLowerCase(Locale.ROOT));
  }

  /** One line: from the first {@code scheme://} to the last {@code @} that ends user info. */
  private static String scrubLine(String line) {
    Matcher scheme = SCHEME_SEPARATOR.matcher(line);
    if (!scheme.find()) {
      return line;
    }
    int start = isKnown(scheme.group(1)) ? scheme.end() : tokenStart(line, scheme.start());
    Matcher host = HOST_AFTER_AT.matcher(line);
    for (int at = line.lastIndexOf('@'); at >= start; at = line.lastIndexOf('@', at - 1)) {
      if (host.region(at + 1, line.length()).lookingAt()) {
        return line.substring(0, start) + line.substring(at + 1);
      }
    }
    return line;
  }

  /**
   * scp-like {@code user:password@host:path} words lose everything up to the last {@code @} before
   * {@code host:}. Only with a password: without one, {@code main@sha1:...} would look the same.
   */
  private static String scrubScpLike(CharSequence text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      int end = i;
      while (end < text.length() && !isDelimiter(text.charAt(end))) {
        end++;
      }
      if (end == i) {
        out.append(text.charAt(i++));
        continue;
      }
      out.append(scrubScpWord(text.subSequence(i, end).toString()));
      i = end;
    }
    return out.toString();
  }

  private static String scrubScpWord(String word) {
    for (int at = word.lastIndexOf('@'); at > 0; at = word.lastIndexOf('@', at - 1)) {
      if (hostThenColon(word, at + 1)) {
        return word.lastIndexOf(':', at) >= 0 ? word.substring(at + 1) : word;
      }
    }
    return word;
  }

  /** {@code host:} or {@code [v6]:} at {@code from}. */
  private static boolean hostThenColon(String word, int from) {
    int i = from;
    if (i < word.length() && word.charAt(i) == '[') {
      i = word.indexOf(']', i);
      return i > 0 && i + 1 < word.length() && word.charAt(i + 1) == ':';
    }
    while (i < word.length() && "@:/[]".indexOf(word.charAt(i)) < 0) {
      i++;
    }
    return i > from
        && i < word.length()
        && word.charAt(i) == ':'
        && !word.startsWith("sha1:", from)
        && !word.startsWith("sha256:", from);
  }

  private static boolean isDelimiter(char c) {
    return Character.isWhitespace(c) || WORD_DELIMITERS.indexOf(c) >= 0;
  }

  /** Where the word ending at {@code from} starts: after whitespace or a quote. */
  private static int tokenStart(String line, int from) {
    int i = from;
    while (i > 0 && !isDelimiter(line.charAt(i - 1))) {
      i--;
    }
    return i;
  }

  /** {@code %XX} sequences decoded as UTF-8; anything malformed is kept as it is. */
  private static String percentDecoded(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length());
    ByteArrayOutputStream run = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      int hi = s.charAt(i) == '%' && i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
      int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
      if (lo >= 0) {
        run.write(hi * 16 + lo);
        i += 2;
      } else {
        out.append(run.toString(StandardCharsets.UTF_8)).append(s.charAt(i));
        run.reset();
      }
    }
    return out.append(run.toString(StandardCharsets.UTF_8)).toString();
  }
}
