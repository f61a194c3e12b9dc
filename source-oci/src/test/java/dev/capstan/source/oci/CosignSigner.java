package dev.capstan.source.oci;

import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.testing.TestPki;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Signs an artifact as {@code cosign sign --key} stores a signature: a simple-signing payload
 * naming the manifest digest, signed with an ECDSA P-256 key made by the test, pushed as the layer
 * of a manifest tagged {@code sha256-<hex>.sig} with the signature in its annotation.
 */
public final class CosignSigner {
  private final KeyPair keys = TestPki.ecKeys();

  /** The public key as {@code cosign generate-key-pair} writes {@code cosign.pub}. */
  public String publicKeyPem() {
    return TestPki.pem(keys.getPublic());
  }

  public void sign(
      String registryHost,
      String repository,
      String digest,
      String username,
      String password,
      Map<String, byte[]> certSecret,
      String scheme)
      throws Exception {
    String payload =
        "{\"critical\":{\"identity\":{\"docker-reference\":\""
            + registryHost
            + "/"
            + repository
            + "\"},\"image\":{\"docker-manifest-digest\":\""
            + digest
            + "\"},\"type\":\""
            + CosignVerifier.PAYLOAD_TYPE
            + "\"},\"optional\":null}";
    byte[] payloadBytes = payload.getBytes(StandardCharsets.UTF_8);
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(keys.getPrivate());
    signer.update(payloadBytes);
    String signature = Base64.getEncoder().encodeToString(signer.sign());
    byte[] config = "{}".getBytes(StandardCharsets.UTF_8);
    String manifest =
        "{\"schemaVersion\":2,\"mediaType\":\""
            + Manifest.OCI_MANIFEST
            + "\",\"config\":{"
            + "\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"size\":"
            + config.length
            + ",\"digest\":\""
            + Registry.digestOf(config)
            + "\"},\"layers\":[{"
            + "\"mediaType\":\"application/vnd.dev.cosign.simplesigning.v1+json\",\"size\":"
            + payloadBytes.length
            + ",\"digest\":\""
            + Registry.digestOf(payloadBytes)
            + "\",\"annotations\":{\""
            + CosignVerifier.SIGNATURE_ANNOTATION
            + "\":\""
            + signature
            + "\"}}]}";
    OciUrl url = OciUrl.parse("oci://" + registryHost + "/" + repository);
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(TlsSettings.context(certSecret, false, url.host()))
            .build();
    RegistryClient client =
        new RegistryClient(
            http,
            scheme,
            url,
            username == null
                ? Optional.empty()
                : Optional.of(new RegistryCredentials(username, password)),
            new TokenCache(Clock.systemUTC()),
            "pull,push",
            Instant.now().plusSeconds(60),
            Clock.systemUTC(),
            scheme.equals("http"),
            ReadDeadlines.withOwnThread(Clock.systemUTC()));
    ArtifactPusher.uploadBlob(
        client, Registry.digestOf(config), HttpRequest.BodyPublishers.ofByteArray(config));
    ArtifactPusher.uploadBlob(
        client,
        Registry.digestOf(payloadBytes),
        HttpRequest.BodyPublishers.ofByteArray(payloadBytes));
    ArtifactPusher.putManifest(
        client,
        "sha256-" + digest.substring("sha256:".length()) + ".sig",
        manifest.getBytes(StandardCharsets.UTF_8));
  }
}
