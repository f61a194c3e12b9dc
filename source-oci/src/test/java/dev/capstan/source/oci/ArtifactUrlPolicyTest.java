package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rule of which ExternalArtifact URLs are downloaded: prefixes, and addresses. */
class ArtifactUrlPolicyTest {
  /** Resolves nothing: a URL judged by its prefix alone must never be resolved. */
  private static final ArtifactUrlPolicy.Resolver NEVER =
      host -> {
        throw new AssertionError("resolved " + host);
      };

  private static final ArtifactUrlPolicy UNDER_A_B =
      ArtifactUrlPolicy.of(List.of("http://a.b/", "https://c.d:8443/art"), false);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://a.b/x.tar.gz",
        "http://A.B/x.tar.gz",
        "http://a.b./x.tar.gz",
        "http://a.b:80/x.tar.gz",
        "http://a.b",
        "http://a.b/x/../y.tar.gz",
        "http://a.b/x.tar.gz?token=1#part",
        "https://c.d:8443/art",
        "https://c.d:8443/art/",
        "https://c.d:8443/art/x/y.tar.gz",
        "HTTPS://C.D:8443/art/x",
      })
  void aUrlUnderAPrefixIsAdmitted(String url) throws Exception {
    URI checked = UNDER_A_B.check(url, NEVER);
    assertTrue(checked.toString().startsWith("http"), checked.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://a.b.evil/x",
        "http://evil/a.b/",
        "http://evil/?u=http://a.b/",
        "https://a.b/x",
        "http://a.b:8080/x",
        "https://c.d/art/x",
        "https://c.d:8443/artifacts/x",
        "https://c.d:8443/art/../secret",
        "https://c.d:8443/",
      })
  void aUrlUnderNoPrefixIsRefusedWithoutBeingResolved(String url) {
    SourceException refused =
        assertThrows(SourceException.class, () -> UNDER_A_B.check(url, NEVER));
    assertEquals(FailureReason.INVALID_URL, refused.reason());
    assertEquals(ArtifactUrlPolicy.refused().getMessage(), refused.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://a.b@evil/x",
        "http://u:p@a.b/x",
        "http://a.b\\@evil/x",
        "http://a.b/x/%2e%2e/y",
        "http://a.b/x/..%2Fy",
        "http://a.b/x%5c..%5cy",
        "http://a.b/../x",
        "ftp://a.b/x",
        "file:///etc/passwd",
        "a.b/x",
        "",
      })
  void aUrlWithUserInformationHiddenSegmentsOrAnotherSchemeIsInvalid(String url) {
    SourceException refused =
        assertThrows(SourceException.class, () -> UNDER_A_B.check(url, NEVER));
    assertEquals(FailureReason.INVALID_URL, refused.reason());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1/x",
        "http://127.1.2.3:8080/x",
        "http://localhost/x",
        "http://[::1]/x",
        "http://[0:0:0:0:0:0:0:1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "http://[::ffff:7f00:1]/x",
        "http://[::127.0.0.1]/x",
        "http://[64:ff9b::169.254.169.254]/x",
        "http://0.0.0.0/x",
        "http://0.1.2.3/x",
        "http://[::]/x",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/x",
        "http://[fd00:ec2::254]/x",
        "http://168.63.129.16/x",
        "http://100.100.100.200/x",
        "http://224.0.0.1/x",
        "http://255.255.255.255/x",
        "http://2130706433/x",
        "http://0x7f.1/x",
        "http://0x7f000001/x",
        "http://017700000001/x",
        "http://127.1/x",
        "http://0/x",
      })
  void withoutPrefixesTheEnginesOwnAndMetadataAddressesAreRefused(String url) {
    SourceException refused =
        assertThrows(
            SourceException.class,
            () -> ArtifactUrlPolicy.DEFAULT.check(url, ArtifactUrlPolicy.Resolver.SYSTEM));
    assertEquals(FailureReason.INVALID_URL, refused.reason(), url);
  }

  @Test
  void aNameIsJudgedByEveryAddressItResolvesTo() throws Exception {
    ArtifactUrlPolicy.Resolver rebinding =
        host ->
            new InetAddress[] {
              InetAddress.getByName("10.0.0.5"), InetAddress.getByName("169.254.169.254")
            };
    assertThrows(
        SourceException.class,
        () -> ArtifactUrlPolicy.DEFAULT.check("http://artifacts.example/x", rebinding));
    ArtifactUrlPolicy.Resolver inCluster =
        host -> new InetAddress[] {InetAddress.getByName("10.96.0.12")};
    assertEquals(
        URI.create("http://artifacts.example:80/x"),
        ArtifactUrlPolicy.DEFAULT.check("http://artifacts.example/x", inCluster));
  }

  @Test
  void aHostThatIsNotFoundIsSaidSo() {
    ArtifactUrlPolicy.Resolver nowhere =
        host -> {
          throw new UnknownHostException(host);
        };
    assertThrows(
        UnknownHostException.class,
        () -> ArtifactUrlPolicy.DEFAULT.check("http://nowhere.example/x", nowhere));
  }

  @Test
  void aPrefixAdmitsLoopbackExplicitly() throws Exception {
    ArtifactUrlPolicy loopback = ArtifactUrlPolicy.of(List.of("http://127.0.0.1:8080/"), false);
    assertEquals(
        URI.create("http://127.0.0.1:8080/a.tar.gz"),
        loopback.check("http://127.0.0.1:8080/a.tar.gz", NEVER));
    assertThrows(
        SourceException.class, () -> loopback.check("http://127.0.0.1:8081/a.tar.gz", NEVER));
    assertThrows(
        SourceException.class, () -> loopback.check("http://localhost:8080/a.tar.gz", NEVER));
  }

  @Test
  void listedOnlyWithoutPrefixesRefusesEveryUrl() {
    ArtifactUrlPolicy none = ArtifactUrlPolicy.of(List.of(), true);
    assertThrows(SourceException.class, () -> none.check("https://example.com/a.tar.gz", NEVER));
    assertTrue(none.listedOnly());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://a.b/",
        "http://u:p@a.b/",
        "http://a.b/?q=1",
        "http://a.b/#f",
        "not a url",
        "a.b/",
      })
  void aPrefixThatIsNotAnHttpUrlIsRefusedNamingIt(String prefix) {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class, () -> ArtifactUrlPolicy.of(List.of(prefix), false));
    assertTrue(refused.getMessage().contains("--artifact-url-allow-prefix"), refused.getMessage());
  }

  @Test
  void prefixesAreKeptNormalised() {
    assertEquals(
        List.of("http://a.b:80/", "https://c.d:8443/art"),
        ArtifactUrlPolicy.of(List.of(" HTTP://A.B ", "", "https://c.d:8443/art"), false)
            .prefixes());
    assertFalse(ArtifactUrlPolicy.DEFAULT.listedOnly());
  }
}
