package dev.capstan.helm.release;

import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A release record and the Secret it is stored in, both ways, as Helm's Secret driver has it: type
 * {@value #TYPE}, the entry {@value #KEY}, and the labels {@code owner=helm}, {@code name}, {@code
 * status}, {@code version} and {@code modifiedAt} (Unix seconds of the last write). A Secret read
 * back must agree with the release it holds in its name, type and labels: one that does not was
 * changed by hand or by another program, and is refused rather than trusted or overwritten.
 */
final class RecordSecrets {
  static final String TYPE = "helm.sh/release.v1";
  static final String KEY = "release";
  static final String OWNER = "helm";

  private final ReleaseCodec codec = new ReleaseCodec();

  /**
   * The Secret holding {@code release} in {@code namespace}, with the labels of {@code previous}
   * that are not Helm's own kept (Helm keeps a release's own labels there).
   */
  Secret secret(String namespace, Release release, Map<String, String> previous, Instant now) {
    Map<String, String> labels = new LinkedHashMap<>(previous);
    labels.put("name", release.name());
    labels.put("owner", OWNER);
    labels.put("status", release.status().helmName());
    labels.put("version", Integer.toString(release.version()));
    labels.put("modifiedAt", Long.toString(now.getEpochSecond()));
    labels.remove("createdAt");
    String entry = codec.encode(release);
    return new SecretBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(ReleaseRecord.secretName(release.name(), release.version()))
        .withLabels(labels)
        .endMetadata()
        .withType(TYPE)
        .addToData(KEY, encodeData(entry))
        .build();
  }

  /**
   * The record {@code secret} holds.
   *
   * @throws ReleaseRecordException CORRUPT or TAMPERED, naming the Secret
   */
  ReleaseRecord record(Secret secret) throws ReleaseRecordException {
    ObjectMeta meta = secret.getMetadata();
    String where = "Secret '" + meta.getNamespace() + "/" + meta.getName() + "'";
    Release release = release(secret, where);
    Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    String mismatch = mismatch(secret, labels, release);
    if (mismatch != null) {
      throw new ReleaseRecordException(
          ReleaseRecordException.Reason.TAMPERED,
          where + " is not a release record this engine can trust: " + mismatch);
    }
    return new ReleaseRecord(
        meta.getNamespace(), meta.getName(), meta.getResourceVersion(), labels, release);
  }

  private Release release(Secret secret, String where) throws ReleaseRecordException {
    byte[] entry;
    try {
      entry =
          SecretEntries.of(secret)
              .bytes(KEY)
              .orElseThrow(
                  () ->
                      new ReleaseRecordException(
                          ReleaseRecordException.Reason.CORRUPT,
                          where + " is a corrupt release record: it has no " + KEY + " entry"));
    } catch (SecretUnavailable e) {
      throw new ReleaseRecordException(
          ReleaseRecordException.Reason.CORRUPT,
          where + " is a corrupt release record: " + e.getMessage());
    }
    try {
      return codec.decode(entry);
    } catch (IllegalArgumentException e) {
      throw new ReleaseRecordException(
          ReleaseRecordException.Reason.CORRUPT,
          where + " is a corrupt release record: " + e.getMessage());
    }
  }

  /** What of the Secret disagrees with the release it holds, or null when all agree. */
  private static String mismatch(Secret secret, Map<String, String> labels, Release release) {
    String name = release.name();
    if (name == null || name.isEmpty() || release.version() < 1) {
      return "its release has no name or version";
    }
    if (!TYPE.equals(secret.getType())) {
      return "its type is '" + secret.getType() + "', not " + TYPE;
    }
    if (!ReleaseRecord.secretName(name, release.version()).equals(secret.getMetadata().getName())) {
      return "its name does not match release " + name + " version " + release.version();
    }
    Map<String, String> expected =
        Map.of(
            "owner",
            OWNER,
            "name",
            name,
            "version",
            Integer.toString(release.version()),
            "status",
            release.status().helmName());
    for (Map.Entry<String, String> label : expected.entrySet()) {
      if (!Objects.equals(label.getValue(), labels.get(label.getKey()))) {
        return "its label "
            + label.getKey()
            + " is '"
            + labels.get(label.getKey())
            + "' where the release says '"
            + label.getValue()
            + "'";
      }
    }
    return null;
  }

  /** A Secret's data value: Base64 of the entry's text, on top of the entry's own Base64. */
  private static String encodeData(String entry) {
    return Base64.getEncoder().encodeToString(entry.getBytes(StandardCharsets.US_ASCII));
  }
}
