package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SemverRange;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.Verified;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.store.StoredState;
import dev.capstan.source.core.store.TreeFilter;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls OCI artifacts into the content-addressed artifact store Git sources use.
 *
 * <p>A pull resolves the reference to a manifest digest with one HEAD request (after a semver
 * range's tag list); when the digest and the spec are those of the stored artifact, nothing else is
 * sent or written. Otherwise the manifest (its bytes hashed against the digest), the signature when
 * {@code verify} asks, and the selected layer (hashed against its descriptor while it is
 * downloaded) are read, the layer is unpacked with bounds, ignore rules are applied, and the tree
 * is published atomically. A failure never touches the last good artifact. Pulls of one source are
 * serialized; different sources run in parallel.
 */
public final class OciSource {
  private static final Logger LOG = LoggerFactory.getLogger(OciSource.class);

  /** The annotation of the source an artifact was made from (a Git URL, say). */
  public static final String SOURCE_ANNOTATION = "org.opencontainers.image.source";

  /** The annotation of the source's revision, e.g. {@code main@sha1:<commit>}. */
  public static final String REVISION_ANNOTATION = "org.opencontainers.image.revision";

  public static final String CREATED_ANNOTATION = "org.opencontainers.image.created";

  /** Metadata kept with an artifact: bounded, since it is the registry's to write. */
  static final int MAX_METADATA_KEY = 253;

  static final int MAX_METADATA_VALUE = 4096;

  private final OciSourceOptions options;
  private final ArtifactStore store;
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
  private final Transports transports = new Transports();
  private final TokenCache tokens;
  private final SchemeProbes schemes = new SchemeProbes();

  public OciSource(OciSourceOptions options) {
    this.options = options;
    this.store = options.store();
    this.tokens = new TokenCache(options.clock());
  }

  /** The artifact last published for {@code key}, if it is still stored. */
  public Optional<StoredArtifact> lastArtifact(String key) {
    return store.state(key).flatMap(store::artifactOf);
  }

  public FetchResult fetch(OciFetchRequest request) {
    ReentrantLock lock = locks.computeIfAbsent(request.target().key(), k -> new ReentrantLock());
    lock.lock();
    try {
      return fetchLocked(request);
    } catch (SourceException e) {
      return failure(request, e.reason(), e.getMessage(), e);
    } catch (IOException e) {
      return failure(
          request,
          FailureReason.STORAGE_FAILED,
          "cannot write the artifact (" + e.getClass().getSimpleName() + ")",
          e);
    } catch (RuntimeException e) {
      LOG.warn("{}: pull failed unexpectedly", request.target().key(), e);
      return failure(
          request,
          FailureReason.OCI_PULL_FAILED,
          "the pull failed unexpectedly (" + e.getClass().getSimpleName() + ")",
          e);
    } finally {
      lock.unlock();
    }
  }

  private FetchResult fetchLocked(OciFetchRequest request) throws IOException {
    Instant deadline = options.clock().instant().plus(request.target().timeout());
    OciUrl url = OciUrl.parse(request.target().url());
    request.ref().validate();
    Optional<CosignKeys> keys = request.verification().map(CosignKeys::of);
    Registry registry = new Registry(client(request, url, "pull", deadline));
    String tag = tagOf(request.ref(), registry);
    String digest =
        request.ref().kind() == OciRef.Kind.DIGEST ? request.ref().digest() : registry.resolve(tag);
    String revision = tag == null ? digest : tag + "@" + digest;
    String sourceId = sourceId(request, keys);
    Optional<StoredState> state = store.state(request.target().key());
    Optional<StoredArtifact> unchanged =
        state
            .filter(s -> s.sourceId().equals(sourceId) && s.remoteId().equals(digest))
            .filter(s -> s.revision().equals(revision))
            .flatMap(store::artifactOf);
    if (unchanged.isPresent()) {
      return new FetchResult.Unchanged(unchanged.get());
    }
    Manifest manifest = registry.manifest(digest);
    Optional<Verified> verified = verify(request, registry, keys, digest, revision);
    Descriptor layer = select(manifest, request.layerMediaType());
    StoredArtifact artifact =
        publish(
            request, registry, layer, digest, revision, sourceId, state, verified, manifest,
            deadline);
    return new FetchResult.Fetched(artifact);
  }

  /** The cosign check {@code verify} asks for: with the keys when given, else keyless. */
  private static Optional<Verified> verify(
      OciFetchRequest request,
      Registry registry,
      Optional<CosignKeys> keys,
      String digest,
      String revision) {
    if (keys.isPresent()) {
      return Optional.of(
          new Verified("cosign", CosignVerifier.verify(registry, digest, revision, keys.get())));
    }
    return request
        .keyless()
        .map(p -> new Verified("cosign", SigstoreVerifier.verify(registry, digest, revision, p)));
  }

  /** The tag pulled: the semver range's highest, the given one, or none for a digest. */
  private static String tagOf(OciRef ref, Registry registry) {
    return switch (ref.kind()) {
      case DIGEST -> null;
      case TAG -> ref.effectiveTag();
      case SEMVER -> {
        Pattern filter = ref.filter();
        List<String> tags =
            registry.tags().stream()
                .filter(t -> filter == null || filter.matcher(t).matches())
                .toList();
        yield SemverRange.parse(ref.semver())
            .highestMatch(tags)
            .orElseThrow(
                () ->
                    new SourceException(
                        FailureReason.READ_OPERATION_FAILED,
                        "no tag of "
                            + registry.client().url().display()
                            + " matches semver '"
                            + ref.semver()
                            + "'"));
      }
    };
  }

  private static Descriptor select(Manifest manifest, String mediaType) {
    if (manifest.layers().isEmpty()) {
      throw new SourceException(FailureReason.OCI_LAYER_FAILED, "no layers found in artifact");
    }
    if (mediaType == null || mediaType.isEmpty()) {
      return manifest.layers().get(0);
    }
    return manifest.layers().stream()
        .filter(l -> l.mediaType().equals(mediaType))
        .findFirst()
        .orElseThrow(
            () ->
                new SourceException(
                    FailureReason.OCI_LAYER_FAILED,
                    "failed to find layer with media type '"
                        + Safe.text(mediaType)
                        + "' in artifact"));
  }

  private StoredArtifact publish(
      OciFetchRequest request,
      Registry registry,
      Descriptor layer,
      String digest,
      String revision,
      String sourceId,
      Optional<StoredState> previous,
      Optional<Verified> verified,
      Manifest manifest,
      Instant deadline)
      throws IOException {
    Path download = store.newTempDir();
    Path exported = store.newTempDir();
    try {
      Path blob = download.resolve("layer");
      registry.download(layer, blob, options.layerLimit(), FailureReason.OCI_LAYER_FAILED);
      String treeDigest;
      if (request.copyLayer()) {
        Files.move(blob, exported.resolve(layer.digest().substring("sha256:".length()) + ".tgz"));
        treeDigest = TreeFilter.filter(exported, "", "");
      } else {
        LayerUnpacker.unpack(blob, exported, options.limits(), options.clock(), deadline);
        treeDigest =
            TreeFilter.filter(
                exported,
                request.target().ignore(),
                TreeFilter.OCI_DEFAULTS,
                options.clock(),
                deadline);
      }
      StoredState next =
          new StoredState(
                  sourceId,
                  digest,
                  revision,
                  treeDigest,
                  options.clock().instant(),
                  null,
                  verified,
                  List.of(),
                  metadata(manifest.annotations()))
              .after(previous);
      StoredArtifact artifact = store.publish(request.target().key(), exported, next);
      LOG.info("stored artifact {} for revision {}", treeDigest, revision);
      return artifact;
    } finally {
      ArtifactStore.deleteQuietly(download);
      ArtifactStore.deleteQuietly(exported); // no-op once it was moved into place
    }
  }

  /** The manifest's annotations as Flux keeps them in the artifact's metadata, bounded. */
  static Map<String, String> metadata(Map<String, String> annotations) {
    Map<String, String> kept = new LinkedHashMap<>();
    annotations.forEach(
        (k, v) -> {
          if (k.length() <= MAX_METADATA_KEY && v.length() <= MAX_METADATA_VALUE) {
            kept.put(k, v);
          }
        });
    return kept;
  }

  /**
   * The registry of {@code request}'s URL, read with its credentials, TLS and proxy until {@code
   * deadline}: for a source that pulls an artifact of its own kind (a Helm chart) through this
   * client. Its failures are {@code SourceException}s, to be reported with {@link #scrubbed}.
   */
  public RegistryReader reader(OciFetchRequest request, Instant deadline) {
    OciUrl url = OciUrl.parse(request.target().url());
    return new RegistryReader(new Registry(client(request, url, "pull", deadline)));
  }

  private RegistryClient client(
      OciFetchRequest request, OciUrl url, String actions, Instant deadline) {
    Optional<RegistryCredentials> credentials =
        RegistryCredentials.forRegistry(url.registry(), request.pullSecrets());
    HttpClient http =
        transports.client(
            request.certSecret(), request.target().proxy(), request.insecure(), url.host());
    boolean plainAllowed = request.insecure() || onLoopback(url.registry());
    String scheme =
        plainAllowed
            ? schemes.scheme(
                request.target().key(),
                url.registry(),
                http,
                Duration.between(options.clock().instant(), deadline))
            : "https";
    return new RegistryClient(
        http,
        scheme,
        url,
        credentials,
        tokens,
        actions,
        deadline,
        options.clock(),
        plainAllowed,
        options.reads());
  }

  /**
   * Whether the registry is on this machine (localhost, 127.0.0.0/8, [::1]): plain http never
   * leaves it, so it is allowed there without {@code insecure}, as Flux's client allows it.
   */
  static boolean onLoopback(String registry) {
    String host =
        registry.startsWith("[")
            ? registry.substring(0, registry.indexOf(']') + 1)
            : registry.contains(":") ? registry.substring(0, registry.lastIndexOf(':')) : registry;
    return host.equals("localhost") || host.equals("[::1]") || host.matches("127(\\.\\d{1,3}){3}");
  }

  private static String sourceId(OciFetchRequest request, Optional<CosignKeys> keys) {
    OciRef ref = request.ref();
    String content =
        String.join(
            "\n",
            request.target().url(),
            String.valueOf(ref.tag()),
            String.valueOf(ref.semver()),
            String.valueOf(ref.semverFilter()),
            String.valueOf(ref.digest()),
            String.valueOf(request.layerMediaType()),
            String.valueOf(request.copyLayer()),
            String.valueOf(request.target().ignore()),
            keys.map(k -> "verify:" + k.identity())
                .or(() -> request.keyless().map(p -> "keyless:" + p.identity()))
                .orElse("unverified"));
    return ArtifactStore.sha256Hex(content);
  }

  private FetchResult failure(
      OciFetchRequest request, FailureReason reason, String detail, Exception error) {
    String message =
        reason.needsSpecChange() || reason == FailureReason.VERIFICATION_FAILED
            ? detail
            : "failed to pull artifact from '"
                + Redaction.scrubUrl(request.target().url())
                + "': "
                + detail;
    String scrubbed = scrubbed(request, message);
    LOG.warn("{}: {}", reason.conditionReason(), scrubbed);
    LOG.debug("{}: pull failed", request.target().key(), error);
    return new FetchResult.Failed(reason, scrubbed, lastArtifact(request.target().key()));
  }

  /**
   * {@code message} without the request's credentials (pull secrets, proxy, client key), whatever a
   * registry echoed; the scheme probed for the request's source is forgotten, as after any failed
   * pull.
   */
  public String scrubbed(OciFetchRequest request, String message) {
    List<String> secrets = new ArrayList<>();
    secrets.addAll(RegistryCredentials.secretTexts(request.pullSecrets()));
    request.pullSecrets().stream()
        .map(
            s -> {
              try {
                return RegistryCredentials.forRegistry(
                    OciUrl.parse(request.target().url()).registry(), List.of(s));
              } catch (RuntimeException e) {
                return Optional.<RegistryCredentials>empty();
              }
            })
        .flatMap(Optional::stream)
        .forEach(c -> secrets.add(c.password()));
    secrets.addAll(Redaction.textOf(request.target().proxyCredentials()));
    secrets.addAll(Redaction.textOf(request.certSecret().values()));
    schemes.forget(request.target().key());
    return Redaction.scrub(message, secrets);
  }
}
