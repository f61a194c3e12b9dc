package dev.capstan.helm.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Release records read from the Secrets {@code helm} wrote, written back in the same form, and
 * refused, with the Secret named, when corrupt or tampered with.
 */
class RecordSecretsTest {
  private final RecordSecrets secrets = new RecordSecrets();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void readsTheRecordsHelmWrote() throws Exception {
    ReleaseRecord first = secrets.record(Fixtures.secret("helm-written-v1"));
    ReleaseRecord second = secrets.record(Fixtures.secret("helm-written-v2"));

    assertEquals("sh.helm.release.v1.fixture.v1", first.secretName());
    assertEquals(ReleaseStatus.SUPERSEDED, first.release().status());
    assertEquals("Install complete", first.release().info().description());
    assertEquals("hi", first.release().config().path("greeting").asText());
    Release release = second.release();
    assertEquals("fixture", release.name());
    assertEquals(2, release.version());
    assertEquals(ReleaseStatus.DEPLOYED, release.status());
    assertEquals("Upgrade complete", release.info().description());
    assertEquals("Thanks for installing fixture.\n", release.info().notes());
    assertEquals("demo", release.chart().name());
    assertEquals("1.2.3", release.chart().version());
    assertEquals("4.5", release.chart().appVersion());
    assertEquals("hello", release.chart().values().path("greeting").asText());
    assertEquals(3, release.chart().templates().size());
    assertTrue(
        new String(release.chart().templates().get(1).data(), StandardCharsets.UTF_8)
            .contains("{{ .Values.greeting | quote }}"));
    assertEquals("bye", release.config().path("greeting").asText());
    assertTrue(release.manifest().contains("name: fixture-cm"));
    ReleaseHook hook = release.hooks().get(0);
    assertEquals(List.of("pre-install"), hook.events());
    assertEquals(-1, hook.weight());
    assertEquals("", hook.lastRun().phase());
    assertEquals(Release.SERVER_SIDE_APPLY, release.applyMethod());
  }

  @Test
  void writesBackTheJsonHelmWrote() throws Exception {
    for (String fixture : List.of("helm-written-v1", "helm-written-v2")) {
      Secret written = Fixtures.secret(fixture);
      Release release = secrets.record(written).release();

      Secret rewritten =
          secrets.secret("apps", release, Map.of(), Instant.parse("2026-01-01T00:00:00Z"));

      assertEquals(helmJson(written), helmJson(rewritten), fixture);
    }
  }

  @Test
  void writesASecretOfHelmsNameTypeAndLabels() throws Exception {
    Release release = secrets.record(Fixtures.secret("helm-written-v2")).release();
    Instant now = Instant.parse("2026-03-04T05:06:07Z");

    Secret secret =
        secrets.secret(
            "apps", release.withStatus(ReleaseStatus.SUPERSEDED), Map.of("team", "web"), now);

    assertEquals("sh.helm.release.v1.fixture.v2", secret.getMetadata().getName());
    assertEquals("apps", secret.getMetadata().getNamespace());
    assertEquals("helm.sh/release.v1", secret.getType());
    assertEquals(
        Map.of(
            "name", "fixture",
            "owner", "helm",
            "status", "superseded",
            "version", "2",
            "modifiedAt", Long.toString(now.getEpochSecond()),
            "team", "web"),
        secret.getMetadata().getLabels());
    // The data value is Base64 of the entry, itself Base64 of gzip: gzip's magic under both.
    byte[] entry = Base64.getDecoder().decode(secret.getData().get("release"));
    byte[] packed = Base64.getDecoder().decode(entry);
    assertEquals(0x1f, packed[0]);
    assertEquals(0x8b, packed[1] & 0xff);
    assertEquals(ReleaseStatus.SUPERSEDED, secrets.record(secret).release().status());
  }

  @Test
  void refusesARecordWhoseLabelsOrNameDoNotMatchItsRelease() {
    Secret status = Fixtures.secret("helm-written-v2");
    status.getMetadata().getLabels().put("status", "superseded");
    Secret version = Fixtures.secret("helm-written-v2");
    version.getMetadata().setName("sh.helm.release.v1.fixture.v3");
    Secret owner = Fixtures.secret("helm-written-v2");
    owner.getMetadata().getLabels().remove("owner");
    Secret type = Fixtures.secret("helm-written-v2");
    type.setType("Opaque");

    assertRefused(status, ReleaseRecordException.Reason.TAMPERED, "label status is 'superseded'");
    assertRefused(version, ReleaseRecordException.Reason.TAMPERED, "name does not match");
    assertRefused(owner, ReleaseRecordException.Reason.TAMPERED, "label owner");
    assertRefused(type, ReleaseRecordException.Reason.TAMPERED, "type is 'Opaque'");
  }

  @Test
  void refusesACorruptRecordSayingWhichLayerIsBroken() throws Exception {
    assertRefused(withEntry("not base64 at all!"), ReleaseRecordException.Reason.CORRUPT, "Base64");
    byte[] brokenGzip = {0x1f, (byte) 0x8b, 0x08, 1, 2, 3, 4, 5};
    assertRefused(
        withEntry(Base64.getEncoder().encodeToString(brokenGzip)),
        ReleaseRecordException.Reason.CORRUPT,
        "not valid gzip");
    assertRefused(
        withEntry(Base64.getEncoder().encodeToString(gzip("{\"name\": ".getBytes()))),
        ReleaseRecordException.Reason.CORRUPT,
        "release JSON is malformed");
    Secret empty = Fixtures.secret("helm-written-v2");
    empty.getData().clear();
    assertRefused(empty, ReleaseRecordException.Reason.CORRUPT, "no release entry");
  }

  @Test
  void refusesARecordThatUnpacksPastTheBound() throws Exception {
    byte[] huge = new byte[ReleaseCodec.MAX_JSON_BYTES + 1];
    assertRefused(
        withEntry(Base64.getEncoder().encodeToString(gzip(huge))),
        ReleaseRecordException.Reason.CORRUPT,
        "more than 64 MiB");
  }

  @Test
  void readsARecordWrittenBeforeHelmCompressedThem() throws Exception {
    Secret written = Fixtures.secret("helm-written-v2");
    byte[] plain = json.writeValueAsBytes(helmJson(written));

    Release release =
        secrets.record(withEntry(Base64.getEncoder().encodeToString(plain))).release();

    assertEquals("fixture", release.name());
  }

  @Test
  void aRefusalNeverQuotesTheRecord() {
    Secret secret =
        withEntry(Base64.getEncoder().encodeToString("{\"secret-value\": }".getBytes()));
    ReleaseRecordException refused =
        assertThrows(ReleaseRecordException.class, () -> secrets.record(secret));
    assertFalse(refused.getMessage().contains("secret-value"), refused.getMessage());
  }

  private void assertRefused(Secret secret, ReleaseRecordException.Reason reason, String words) {
    ReleaseRecordException refused =
        assertThrows(ReleaseRecordException.class, () -> secrets.record(secret));
    assertEquals(reason, refused.reason());
    assertTrue(
        refused.getMessage().startsWith("Secret 'apps/" + secret.getMetadata().getName() + "'"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains(words), refused.getMessage());
  }

  /** The fixture v2 with its release entry replaced by {@code entry}. */
  private static Secret withEntry(String entry) {
    Secret secret = Fixtures.secret("helm-written-v2");
    return new SecretBuilder(secret)
        .withData(
            Map.of(
                "release",
                Base64.getEncoder().encodeToString(entry.getBytes(StandardCharsets.US_ASCII))))
        .build();
  }

  /** The release JSON in a Secret, unpacked here by hand, independently of the codec. */
  private JsonNode helmJson(Secret secret) throws IOException {
    byte[] entry = Base64.getDecoder().decode(secret.getData().get("release"));
    byte[] packed = Base64.getDecoder().decode(entry);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(packed))) {
      return json.readTree(in.readAllBytes());
    }
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(body);
    }
    return out.toByteArray();
  }
}
