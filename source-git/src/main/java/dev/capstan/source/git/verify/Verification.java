package dev.capstan.source.git.verify;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What must be signed, and by whom, before a revision becomes the artifact ({@code spec.verify}).
 *
 * @param mode which objects are checked
 * @param keys the Secret's data: SSH public keys ({@code authorized_keys} lines) in entries named
 *     {@code *.sshpub}, ASCII-armored OpenPGP public keys in every other entry
 */
public record Verification(Mode mode, Map<String, byte[]> keys) {

  public Verification {
    Objects.requireNonNull(mode, "mode");
    keys = keys == null ? Map.of() : Map.copyOf(keys);
  }

  /** The objects checked, by the names {@code spec.verify.mode} uses. */
  public enum Mode {
    HEAD("HEAD"),
    TAG("Tag"),
    TAG_AND_HEAD("TagAndHEAD");

    private final String specName;

    Mode(String specName) {
      this.specName = specName;
    }

    /** The mode for {@code spec.verify.mode}: HEAD when absent, {@code head} as HEAD. */
    public static Mode parse(String text) {
      if (text == null || text.isBlank() || text.equals("head")) {
        return HEAD;
      }
      for (Mode m : values()) {
        if (m.specName.equals(text)) {
          return m;
        }
      }
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.verify.mode '" + text + "' is not one of HEAD, Tag, TagAndHEAD");
    }

    public String specName() {
      return specName;
    }

    boolean checksCommit() {
      return this != TAG;
    }

    boolean checksTag() {
      return this != HEAD;
    }
  }

  /** Changes when the mode or any key does, so a change re-verifies the stored revision. */
  public String identity() {
    StringBuilder text = new StringBuilder(mode.name());
    new TreeMap<>(keys)
        .forEach(
            (k, v) ->
                text.append('\n')
                    .append(k)
                    .append('=')
                    .append(ArtifactStore.sha256Hex(new String(v, StandardCharsets.ISO_8859_1))));
    return text.toString();
  }

  @Override
  public String toString() {
    return "Verification[mode=" + mode + ", keys=" + keys.keySet() + "]";
  }
}
