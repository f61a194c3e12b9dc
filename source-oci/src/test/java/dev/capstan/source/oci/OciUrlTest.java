package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OciUrlTest {

  @Test
  void splitsRegistryAndRepository() {
    OciUrl url = OciUrl.parse("oci://ghcr.io/stefanprodan/manifests/podinfo");
    assertEquals("ghcr.io", url.registry());
    assertEquals("stefanprodan/manifests/podinfo", url.repository());
    assertEquals("127.0.0.1:5000", OciUrl.parse("oci://127.0.0.1:5000/app").registry());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://ghcr.io/org/app",
        "oci://ghcr.io",
        "oci://ghcr.io/",
        "oci://ghcr.io/org/app:v1",
        "oci://ghcr.io/org/app@sha256:abc",
        "oci://user:pass@ghcr.io/org/app",
        "oci://ghcr.io/Org/App",
        "oci://ghcr.io/org/../app",
        "oci://ghcr.io/org/app?x=1",
        "oci://ghcr.io/org/app\n"
      })
  void refusesWhatIsNotARepositoryUrl(String url) {
    SourceException e = assertThrows(SourceException.class, () -> OciUrl.parse(url));
    assertEquals(FailureReason.INVALID_URL, e.reason());
  }

  @Test
  void takesTheTagOfAPushTarget() {
    OciUrl.Tagged tagged = OciUrl.parseTagged("oci://127.0.0.1:5000/org/app:v1.2.3");
    assertEquals("127.0.0.1:5000", tagged.url().registry());
    assertEquals("org/app", tagged.url().repository());
    assertEquals("v1.2.3", tagged.tag());
    assertThrows(SourceException.class, () -> OciUrl.parseTagged("oci://127.0.0.1:5000/org/app"));
  }

  @Test
  void checksReferences() {
    assertEquals(
        OciRef.Kind.DIGEST, new OciRef("v1", ">=1", null, "sha256:" + "a".repeat(64)).kind());
    assertEquals(OciRef.Kind.SEMVER, new OciRef("v1", ">=1", null, null).kind());
    assertEquals("latest", OciRef.latest().effectiveTag());
    SourceException digest =
        assertThrows(
            SourceException.class, () -> new OciRef(null, null, null, "sha256:short").validate());
    assertEquals(FailureReason.INVALID_REF, digest.reason());
    assertThrows(
        SourceException.class, () -> new OciRef(null, ">=1", "(unclosed", null).validate());
    assertThrows(SourceException.class, () -> OciRef.tag("bad tag").validate());
  }
}
