package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.tls.SecretTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Publishes a directory as an OCI artifact in Flux's format ({@code flux push artifact}): one
 * tar+gzip layer of media type {@code application/vnd.cncf.flux.content.v1.tar+gzip}, a config of
 * media type {@code application/vnd.cncf.flux.config.v1+json}, and the manifest's annotations
 * {@code org.opencontainers.image.created}, {@code .source} and {@code .revision}.
 */
public final class ArtifactPusher {
  public static final String CONFIG_MEDIA_TYPE = "application/vnd.cncf.flux.config.v1+json";
  public static final String CONTENT_MEDIA_TYPE = "application/vnd.cncf.flux.content.v1.tar+gzip";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Clock clock;
  private final TokenCache tokens;
  private final ReadDeadlines reads;

  public ArtifactPusher(Clock clock) {
    this.clock = clock;
    this.tokens = new TokenCache(clock);
    this.reads = ReadDeadlines.withOwnThread(clock);
  }

  /**
   * What to push.
   *
   * @param created the time the artifact says it was made; now when null
   * @param ignore gitignore lines of what is left out; Flux's defaults when null
   * @param annotations more annotations; they may override the three standard ones
   * @param insecure plain http allowed
   * @param caPem a PEM CA certificate to trust beside the JVM's; null for none
   */
  public record Push(
      OciUrl.Tagged target,
      Path dir,
      String source,
      String revision,
      Instant created,
      String ignore,
      Map<String, String> annotations,
      Optional<RegistryCredentials> credentials,
      boolean insecure,
      byte[] caPem,
      Instant deadline) {}

  /** Where the artifact went: the repository, the tag and the manifest's digest. */
  public record Pushed(OciUrl url, String tag, String digest) {}

  public Pushed push(Push push) throws IOException {
    Path work = Files.createTempDirectory("capstan-push");
    try {
      ArtifactPacker.Packed layer =
          ArtifactPacker.pack(
              push.dir(),
              push.ignore() == null ? ArtifactPacker.DEFAULT_IGNORE : push.ignore(),
              work.resolve("layer.tgz"));
      Instant created = push.created() == null ? clock.instant() : push.created();
      byte[] config = config(created, layer.diffId());
      Map<String, String> annotations = new LinkedHashMap<>();
      annotations.put(OciSource.CREATED_ANNOTATION, created.toString());
      annotations.put(OciSource.SOURCE_ANNOTATION, push.source());
      annotations.put(OciSource.REVISION_ANNOTATION, push.revision());
      annotations.putAll(push.annotations());
      byte[] manifest = manifest(config, layer, annotations);
      RegistryClient client = client(push);
      uploadBlob(client, Registry.digestOf(config), HttpRequest.BodyPublishers.ofByteArray(config));
      uploadBlob(client, layer.digest(), HttpRequest.BodyPublishers.ofFile(layer.file()));
      putManifest(client, push.target().tag(), manifest);
      return new Pushed(push.target().url(), push.target().tag(), Registry.digestOf(manifest));
    } finally {
      ArtifactStore.deleteQuietly(work);
    }
  }

  private RegistryClient client(Push push) {
    Map<String, byte[]> certs =
        push.caPem() == null ? Map.of() : Map.of(SecretTls.CA, push.caPem());
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .sslContext(TlsSettings.context(certs, false, push.target().url().host()))
            .build();
    return new RegistryClient(
        http,
        push.insecure() ? "http" : "https",
        push.target().url(),
        push.credentials(),
        tokens,
        "pull,push",
        push.deadline(),
        clock,
        push.insecure(),
        reads);
  }

  static byte[] config(Instant created, String diffId) {
    ObjectNode config = JSON.createObjectNode();
    config.put("architecture", "");
    config.put("created", created.toString());
    config.put("os", "");
    ObjectNode rootfs = config.putObject("rootfs");
    rootfs.put("type", "layers");
    rootfs.putArray("diff_ids").add(diffId);
    config.putObject("config");
    return config.toString().getBytes(StandardCharsets.UTF_8);
  }

  static byte[] manifest(
      byte[] config, ArtifactPacker.Packed layer, Map<String, String> annotations) {
    ObjectNode manifest = JSON.createObjectNode();
    manifest.put("schemaVersion", 2);
    manifest.put("mediaType", Manifest.OCI_MANIFEST);
    ObjectNode configDescriptor = manifest.putObject("config");
    configDescriptor.put("mediaType", CONFIG_MEDIA_TYPE);
    configDescriptor.put("size", config.length);
    configDescriptor.put("digest", Registry.digestOf(config));
    ArrayNode layers = manifest.putArray("layers");
    ObjectNode layerDescriptor = layers.addObject();
    layerDescriptor.put("mediaType", CONTENT_MEDIA_TYPE);
    layerDescriptor.put("size", layer.size());
    layerDescriptor.put("digest", layer.digest());
    ObjectNode notes = manifest.putObject("annotations");
    annotations.forEach(notes::put);
    return manifest.toString().getBytes(StandardCharsets.UTF_8);
  }

  static void uploadBlob(RegistryClient client, String digest, HttpRequest.BodyPublisher body) {
    HttpResponse<InputStream> exists =
        client.send(
            client
                .request(client.uri("blobs/" + digest))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    RegistryClient.close(exists);
    if (exists.statusCode() == 200) {
      return;
    }
    HttpResponse<InputStream> started =
        client.send(
            client.request(client.uri("blobs/uploads/")).POST(HttpRequest.BodyPublishers.noBody()));
    RegistryClient.close(started);
    String location = started.headers().firstValue("Location").orElse(null);
    if (started.statusCode() != 202 || location == null) {
      throw pushFailed("the registry answered " + started.statusCode() + " to a blob upload");
    }
    URI upload = client.uri("").resolve(location);
    String separator = upload.getQuery() == null ? "?" : "&";
    URI put = URI.create(upload + separator + "digest=" + digest);
    HttpResponse<InputStream> done =
        client.send(
            client.request(put).header("Content-Type", "application/octet-stream").PUT(body));
    RegistryClient.close(done);
    if (done.statusCode() != 201) {
      throw pushFailed("the registry answered " + done.statusCode() + " to blob " + digest);
    }
  }

  static void putManifest(RegistryClient client, String tag, byte[] manifest) {
    HttpResponse<InputStream> response =
        client.send(
            client
                .request(client.uri("manifests/" + tag))
                .header("Content-Type", Manifest.OCI_MANIFEST)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)));
    RegistryClient.close(response);
    if (response.statusCode() != 201) {
      throw pushFailed("the registry answered " + response.statusCode() + " to the manifest");
    }
  }

  private static SourceException pushFailed(String message) {
    return new SourceException(FailureReason.OCI_PULL_FAILED, message);
  }
}
