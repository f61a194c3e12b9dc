package dev.capstan.source.oci;

import dev.capstan.source.core.ReadDeadlines;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Attaches a Sigstore bundle to an artifact in a plain-http registry on loopback as {@code cosign
 * sign} v3 attaches it: the bundle as the one layer of an OCI 1.1 artifact of type {@code
 * application/vnd.dev.sigstore.bundle.v0.3+json} whose {@code subject} is the artifact's manifest,
 * listed by the registry's referrers API or, when the registry has none, in the index tagged {@code
 * sha256-<hex>} (the referrers tag schema).
 */
public final class KeylessSigner {
  static final String BUNDLE_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json";
  static final String EMPTY_TYPE = "application/vnd.oci.empty.v1+json";

  private KeylessSigner() {}

  /** Pushes an artifact of {@code bundle} referring to the manifest {@code digest}. */
  public static void attach(String registryHost, String repository, String digest, String bundle)
      throws IOException {
    RegistryClient client = client(registryHost, repository);
    byte[] subject = get(client, "manifests/" + digest);
    byte[] config = "{}".getBytes(StandardCharsets.UTF_8);
    byte[] blob = bundle.getBytes(StandardCharsets.UTF_8);
    ArtifactPusher.uploadBlob(
        client, Registry.digestOf(config), HttpRequest.BodyPublishers.ofByteArray(config));
    ArtifactPusher.uploadBlob(
        client, Registry.digestOf(blob), HttpRequest.BodyPublishers.ofByteArray(blob));
    String manifest =
        "{\"schemaVersion\":2,\"mediaType\":\""
            + Manifest.OCI_MANIFEST
            + "\",\"artifactType\":\""
            + BUNDLE_TYPE
            + "\",\"config\":"
            + descriptor(EMPTY_TYPE, config)
            + ",\"layers\":["
            + descriptor(BUNDLE_TYPE, blob)
            + "],\"subject\":"
            + descriptor(Manifest.OCI_MANIFEST, subject)
            + ",\"annotations\":{\"dev.sigstore.bundle.content\":\"dsse-envelope\"}}";
    byte[] manifestBytes = manifest.getBytes(StandardCharsets.UTF_8);
    String manifestDigest = Registry.digestOf(manifestBytes);
    ArtifactPusher.putManifest(client, manifestDigest, manifestBytes);
    HttpResponse<InputStream> referrers =
        client.send(client.request(client.uri("referrers/" + digest)).GET());
    RegistryClient.close(referrers);
    if (referrers.statusCode() != 200) {
      String index =
          "{\"schemaVersion\":2,\"mediaType\":\""
              + SigstoreBundles.INDEX
              + "\",\"manifests\":[{\"mediaType\":\""
              + Manifest.OCI_MANIFEST
              + "\",\"artifactType\":\""
              + BUNDLE_TYPE
              + "\",\"digest\":\""
              + manifestDigest
              + "\",\"size\":"
              + manifestBytes.length
              + "}]}";
      put(client, "sha256-" + digest.substring("sha256:".length()), index);
    }
  }

  private static String descriptor(String mediaType, byte[] content) {
    return "{\"mediaType\":\""
        + mediaType
        + "\",\"digest\":\""
        + Registry.digestOf(content)
        + "\",\"size\":"
        + content.length
        + "}";
  }

  private static byte[] get(RegistryClient client, String path) throws IOException {
    HttpResponse<InputStream> response =
        client.send(client.request(client.uri(path)).header("Accept", Manifest.OCI_MANIFEST).GET());
    try (InputStream in = response.body()) {
      if (response.statusCode() != 200) {
        throw new IOException("GET " + path + ": " + response.statusCode());
      }
      return in.readAllBytes();
    }
  }

  private static void put(RegistryClient client, String tag, String index) throws IOException {
    HttpResponse<InputStream> response =
        client.send(
            client
                .request(client.uri("manifests/" + tag))
                .header("Content-Type", SigstoreBundles.INDEX)
                .PUT(HttpRequest.BodyPublishers.ofString(index)));
    RegistryClient.close(response);
    if (response.statusCode() != 201) {
      throw new IOException("PUT of the referrers index: " + response.statusCode());
    }
  }

  private static RegistryClient client(String registryHost, String repository) {
    Clock clock = Clock.systemUTC();
    return new RegistryClient(
        HttpClient.newHttpClient(),
        "http",
        OciUrl.parse("oci://" + registryHost + "/" + repository),
        Optional.empty(),
        new TokenCache(clock),
        "pull,push",
        Instant.now().plusSeconds(60),
        clock,
        true,
        ReadDeadlines.withOwnThread(clock));
  }
}
