package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.ignore.IgnoreRules;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The objects of a bucket that go into its artifact, by key, and the revision Flux gives them: the
 * sha256 of the index's lines {@code <key> <etag>\n} (the ETag without its quotes), keys in the
 * order of their bytes, written {@code sha256:<hex>}. Left out, as Flux leaves them out: keys that
 * end in {@code /} (directory markers), the root's {@code .sourceignore}, and what the ignore rules
 * ignore (a key is ignored when it or one of its directories is). A kept key must name a file
 * inside the artifact: no empty, {@code .} or {@code ..} segment, no leading {@code /}, no
 * backslash or control character, and no key that is also another key's directory.
 */
final class ObjectIndex {
  /** Keys in the order of their UTF-8 bytes, as Go sorts strings. */
  static final Comparator<String> BYTE_ORDER =
      (a, b) ->
          Arrays.compareUnsigned(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  private final SortedMap<String, ListingParser.Listed> objects;

  private ObjectIndex(SortedMap<String, ListingParser.Listed> objects) {
    this.objects = objects;
  }

  static ObjectIndex of(List<ListingParser.Listed> listed, IgnoreRules rules, int maxKeyLength) {
    SortedMap<String, ListingParser.Listed> kept = new TreeMap<>(BYTE_ORDER);
    Map<String, Boolean> ignoredDirs = new HashMap<>();
    for (ListingParser.Listed object : listed) {
      String key = object.key();
      if (key.endsWith("/") || key.equals(IgnoreRules.SOURCE_IGNORE)) {
        continue;
      }
      if (key.length() > maxKeyLength) {
        throw refused(key, "is longer than " + maxKeyLength + " characters");
      }
      if (!ignored(key, rules, ignoredDirs)) {
        checkKey(key);
        kept.put(key, object);
      }
    }
    checkNoFileIsADirectory(kept);
    return new ObjectIndex(kept);
  }

  SortedMap<String, ListingParser.Listed> objects() {
    return objects;
  }

  /** Flux's revision of the index: {@code sha256:<hex>}. */
  String revision() {
    MessageDigest sha256 = sha256();
    for (var object : objects.values()) {
      sha256.update((object.key() + " " + object.etag() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return "sha256:" + HexFormat.of().formatHex(sha256.digest());
  }

  private static boolean ignored(String key, IgnoreRules rules, Map<String, Boolean> dirs) {
    int slash = key.indexOf('/');
    while (slash > 0) {
      String dir = key.substring(0, slash);
      Boolean known = dirs.get(dir);
      if (known == null) {
        known = rules.isIgnored(dir, true);
        dirs.put(dir, known);
      }
      if (known) {
        return true;
      }
      slash = key.indexOf('/', slash + 1);
    }
    return rules.isIgnored(key, false);
  }

  private static void checkKey(String key) {
    if (key.startsWith("/")) {
      throw refused(key, "is an absolute path");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '\\') {
        throw refused(key, "holds a control character or a backslash");
      }
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw refused(key, "has an empty, '.' or '..' segment and would leave the artifact");
      }
    }
  }

  private static void checkNoFileIsADirectory(SortedMap<String, ListingParser.Listed> kept) {
    Set<String> dirs = new HashSet<>();
    for (String key : kept.keySet()) {
      for (int slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
        dirs.add(key.substring(0, slash));
      }
    }
    for (String key : kept.keySet()) {
      if (dirs.contains(key)) {
        throw refused(key, "is also the directory of other objects");
      }
    }
  }

  /** A refusal naming the key, shortened and with what could not be shown replaced. */
  static SourceException refused(String key, String why) {
    return new SourceException(
        FailureReason.BUCKET_OPERATION_FAILED, "object key '" + shown(key) + "' " + why);
  }

  static String shown(String key) {
    String printable = key.replaceAll("[\\p{Cntrl}]", "?");
    return printable.length() > 200 ? printable.substring(0, 200) + "..." : printable;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
