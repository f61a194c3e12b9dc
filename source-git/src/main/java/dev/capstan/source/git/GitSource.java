package dev.capstan.source.git;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.IncludedRevision;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.Verified;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.store.StoredState;
import dev.capstan.source.git.github.InstallationTokens;
import dev.capstan.source.git.transport.FailureClassifier;
import dev.capstan.source.git.transport.NetworkRetry;
import dev.capstan.source.git.transport.ProxyAuthenticators;
import dev.capstan.source.git.transport.ProxyCredentialConnections;
import dev.capstan.source.git.transport.RemoteOperations;
import dev.capstan.source.git.transport.RemoteUrl;
import dev.capstan.source.git.transport.TransportSetup;
import dev.capstan.source.git.verify.RevisionVerifier;
import dev.capstan.source.git.verify.SigningKeys;
import dev.capstan.source.git.verify.Verification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.RefSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches Git refs into a content-addressed artifact store.
 *
 * <p>A fetch lists the remote's refs first; when the ref still points where it did for the stored
 * artifact, nothing is fetched or written. Otherwise the needed objects are fetched into a
 * per-source bare repository cache (shallow where the ref allows), the commit's tree is exported
 * with ignore rules applied, and the result is published atomically. Failures never touch the last
 * good artifact. Fetches of one source are serialized; different sources run in parallel.
 */
public final class GitSource {

  private static final Logger LOG = LoggerFactory.getLogger(GitSource.class);

  private final GitSourceOptions options;
  private final Clock clock;
  private final ArtifactStore store;
  private final RemoteOperations remote;
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
  private final ProxyAuthenticators proxyAuthenticators = new ProxyAuthenticators();
  private final ProviderCredentials providers;

  /**
   * Lets the JDK answer an https tunnel's (CONNECT's) proxy challenge with Basic auth, which it
   * refuses by default; call it at the start of {@code main}, before any HTTP connection, since the
   * JDK reads the setting once. Safe: it only permits Basic for tunnels; the only credentials the
   * JDK could send are those of a fetch's own proxy Secret, from an authenticator set on that
   * fetch's connections alone (no default authenticator is ever set).
   */
  public static void allowBasicProxyCredentialsForTunnels() {
    System.setProperty(ProxyCredentialConnections.TUNNELING_DISABLED_SCHEMES, "");
  }

  public GitSource(GitSourceOptions options) {
    this(options, new ArtifactStore(options.storageRoot(), options.clock()));
  }

  /**
   * A source that publishes into {@code store}, which other kinds of source share: one store (and
   * its lock) per root, so that one source's collection never removes what another just published.
   */
  public GitSource(GitSourceOptions options, ArtifactStore store) {
    this.options = options;
    this.clock = options.clock();
    this.store = store;
    this.remote = new RemoteOperations(new NetworkRetry(options.retry(), clock));
    this.providers =
        new ProviderCredentials(new InstallationTokens(clock), options.credentialsOverPlainHttp());
  }

  /**
   * The directory that holds every stored tree (and nothing else of the store: no repository cache,
   * no state), created if missing: what a build of a stored tree may read.
   */
  public Path artifactsDirectory() {
    Path dir = store.artifactsRoot();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the artifact directory " + dir, e);
    }
    return dir;
  }

  /** The artifact last published for {@code key}, if it is still stored. */
  public Optional<StoredArtifact> lastArtifact(String key) {
    return store.state(key).flatMap(store::artifactOf);
  }

  /**
   * The directory of the tree stored under {@code digest}, if this store holds one. What a
   * GitRepository's status says is only a digest to look up here: whoever can write that status
   * cannot point a build at another directory.
   */
  public Optional<Path> storedTree(String digest) {
    if (!ArtifactStore.isDigest(digest)) {
      return Optional.empty();
    }
    Path dir = store.artifactDir(digest);
    return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
  }

  /**
   * The author and first message line of {@code commitId} as the repository cache of {@code key}
   * holds it after a fetch; empty when the cache does not hold that commit.
   */
  public Optional<CommitSummary> commit(String key, String commitId) {
    if (commitId == null || !commitId.matches("[0-9a-f]{40}")) {
      return Optional.empty();
    }
    ReentrantLock lock = locks.computeIfAbsent(key, k -> new ReentrantLock());
    lock.lock();
    try (Git git = RepositoryCache.open(RepositoryCache.dirOf(store, key));
        RevWalk walk = new RevWalk(git.getRepository())) {
      var id = ObjectId.fromString(commitId);
      if (!git.getRepository().getObjectDatabase().has(id)) {
        return Optional.empty();
      }
      return Optional.of(CommitSummary.of(walk.parseCommit(id)));
    } catch (IOException e) {
      return Optional.empty();
    } finally {
      lock.unlock();
    }
  }

  public FetchResult fetch(FetchRequest request) {
    ReentrantLock lock = locks.computeIfAbsent(request.target().key(), k -> new ReentrantLock());
    lock.lock();
    try {
      return fetchLocked(request);
    } finally {
      lock.unlock();
    }
  }

  private FetchResult fetchLocked(FetchRequest asked) {
    FetchRequest request = asked;
    Instant deadline =
        clock
            .instant()
            .plus(
                request.target().timeout() != null
                    ? request.target().timeout()
                    : options.defaultTimeout());
    TransportSetup setup = null;
    try {
      RemoteUrl url = RemoteUrl.parse(request.target().url(), options.allowedSchemes());
      RefResolver.validate(request.ref());
      if (request.verification() != null) {
        SigningKeys.of(request.verification().keys()); // an unusable key fails before any I/O
      }
      SparseCheckout.of(request.sparseCheckout());
      // From here on the request holds the provider's credentials, which failures scrub too.
      request = providers.apply(asked, url, deadline);
      setup =
          TransportSetup.create(
              url,
              request.secretData(),
              sshHome().toFile(),
              options.credentialsOverPlainHttp(),
              request.target().proxy(),
              proxyAuthenticators);
      return fetchWith(request, url, setup, deadline);
    } catch (Exception | LinkageError e) {
      return failure(request, e, setup);
    } finally {
      if (setup != null) {
        setup.close();
      }
    }
  }

  private FetchResult fetchWith(
      FetchRequest request, RemoteUrl url, TransportSetup setup, Instant deadline)
      throws Exception {
    ResolvedRef resolved =
        RefResolver.needsNoListing(request.ref())
            ? RefResolver.commit(request.ref())
            : RefResolver.resolve(request.ref(), remote.listRefs(url, setup, deadline));
    String sourceId = sourceId(request);
    Optional<StoredState> state = store.state(request.target().key());
    Optional<StoredArtifact> unchanged =
        state
            .filter(s -> s.sourceId().equals(sourceId))
            .filter(s -> s.remoteId().equals(resolved.objectId().name()))
            .flatMap(store::artifactOf);
    if (unchanged.isPresent()) {
      return new FetchResult.Unchanged(unchanged.get());
    }
    Path cache = RepositoryCache.dirOf(store, request.target().key());
    try {
      return fetchThrough(cache, request, url, setup, deadline, resolved, sourceId, state);
    } catch (Exception e) {
      if (!RepositoryCache.isDamage(e)) {
        throw e;
      }
      // A fetch cut short (a full disk, a kill) can leave refs whose objects never landed; every
      // later fetch would fail on them. The cache is only a cache: fetch into a new one, once.
      LOG.warn(
          "the repository cache of {} misses objects its refs name ({}); fetching into a new one",
          request.target().key(),
          e.getClass().getSimpleName());
      ArtifactStore.deleteTree(cache);
      try {
        return fetchThrough(cache, request, url, setup, deadline, resolved, sourceId, state);
      } catch (Exception again) {
        again.addSuppressed(e);
        throw again;
      }
    }
  }

  private FetchResult fetchThrough(
      Path cache,
      FetchRequest request,
      RemoteUrl url,
      TransportSetup setup,
      Instant deadline,
      ResolvedRef resolved,
      String sourceId,
      Optional<StoredState> state)
      throws Exception {
    try (Git git = RepositoryCache.open(cache)) {
      var objects = git.getRepository().getObjectDatabase();
      if (!objects.has(resolved.objectId())
          || (resolved.advertised() != null && !objects.has(resolved.advertised()))) {
        long start = System.nanoTime();
        remote.fetch(git, url, refSpecs(resolved), resolved.shallow() ? 1 : 0, setup, deadline);
        RepositoryCache.maintain(git);
        LOG.debug(
            "fetched {} in {} ms", resolved.fetchRef(), (System.nanoTime() - start) / 1_000_000);
      }
      RevCommit commit = commitOf(git, resolved, request.ref());
      Optional<Verified> verified =
          request.verification() == null
              ? Optional.empty()
              : Optional.of(verify(request.verification(), git, resolved, commit));
      SubmoduleFetcher.Context submodules =
          new SubmoduleFetcher.Context(
              remote,
              setup,
              deadline,
              options.allowedSchemes(),
              sshHome().toFile(),
              request.target().proxy());
      return new FetchResult.Fetched(
          publish(request, git, commit, resolved, sourceId, state, verified, url, submodules));
    }
  }

  private Verified verify(
      Verification verification, Git git, ResolvedRef resolved, RevCommit commit)
      throws IOException {
    Path scratch = store.newTempDir();
    try {
      return RevisionVerifier.verify(
          verification,
          git.getRepository(),
          resolved.revisionName(),
          resolved.isTag() ? resolved.advertised() : null,
          commit,
          scratch);
    } finally {
      ArtifactStore.deleteQuietly(scratch);
    }
  }

  private StoredArtifact publish(
      FetchRequest request,
      Git git,
      RevCommit commit,
      ResolvedRef resolved,
      String sourceId,
      Optional<StoredState> previous,
      Optional<Verified> verified,
      RemoteUrl url,
      SubmoduleFetcher.Context context)
      throws IOException {
    Path exported = store.newTempDir();
    long exportStart = System.nanoTime();
    Deadline deadline = new Deadline(clock, context.deadline());
    TreeExporter.Limits limits =
        new TreeExporter.Limits(options.sizeLimitBytes(), options.entryLimit());
    try (var reader = git.getRepository().newObjectReader();
        SubmoduleFetcher submodules =
            request.recurseSubmodules()
                ? new SubmoduleFetcher(git, url, commit.getTree(), context)
                : null) {
      String treeDigest =
          TreeExporter.export(
              reader,
              commit.getTree(),
              request.target().ignore(),
              exported,
              limits,
              SparseCheckout.of(request.sparseCheckout()),
              submodules,
              deadline);
      List<IncludedRevision> included =
          new Includes(store, limits, deadline).copy(request.includes(), exported);
      String digest =
          included.isEmpty()
              ? treeDigest
              : Includes.combine(treeDigest, included, request.includes());
      LOG.debug(
          "exported {} in {} ms", commit.name(), (System.nanoTime() - exportStart) / 1_000_000);
      String revision = resolved.revision(commit);
      StoredState next =
          new StoredState(
                  sourceId,
                  resolved.objectId().name(),
                  revision,
                  digest,
                  clock.instant(),
                  null,
                  verified,
                  included,
                  Map.of())
              .after(previous);
      StoredArtifact artifact = store.publish(request.target().key(), exported, next);
      LOG.info("stored artifact {} for revision {}", digest, revision);
      return artifact;
    } finally {
      ArtifactStore.deleteQuietly(exported); // no-op once it was moved into place
    }
  }

  private static RevCommit commitOf(Git git, ResolvedRef resolved, GitRef ref) throws IOException {
    try (RevWalk walk = new RevWalk(git.getRepository())) {
      if (!git.getRepository().getObjectDatabase().has(resolved.objectId())) {
        String where = ref.branch() != null ? " on branch '" + ref.branch() + "'" : "";
        throw new SourceException(
            FailureReason.REF_NOT_FOUND,
            "commit '" + resolved.objectId().name() + "' does not exist" + where);
      }
      // Peels an annotated tag to its commit.
      return walk.parseCommit(resolved.objectId());
    } catch (IncorrectObjectTypeException e) {
      throw new SourceException(
          FailureReason.INVALID_REF, "'" + resolved.objectId().name() + "' is not a commit");
    }
  }

  private static List<RefSpec> refSpecs(ResolvedRef resolved) {
    if (resolved.fetchRef() != null) {
      return List.of(new RefSpec("+" + resolved.fetchRef() + ":" + resolved.fetchRef()));
    }
    // A bare commit id: fetch every branch and tag, one of which must contain it.
    return List.of(
        new RefSpec("+" + Constants.R_HEADS + "*:" + Constants.R_HEADS + "*"),
        new RefSpec("+" + Constants.R_TAGS + "*:" + Constants.R_TAGS + "*"));
  }

  private FetchResult failure(FetchRequest request, Throwable error, TransportSetup setup) {
    FailureReason reason = FailureClassifier.reasonOf(error);
    String detail = FailureClassifier.detailOf(error);
    if (setup != null && setup.rejectedHost() != null) {
      reason = FailureReason.HOST_KEY_REJECTED;
      detail =
          "the host key of " + setup.rejectedHost() + " is not listed in the secret's known_hosts";
    }
    detail = detail.replace(request.target().url() + ": ", "");
    boolean certificateAsked = setup != null && setup.clientCertificateRequested();
    if (FailureClassifier.clientCertificateRefused(error)
        || (certificateAsked && FailureClassifier.connectionDropped(error))) {
      reason = FailureReason.AUTHENTICATION_FAILED;
      detail = clientCertificateRefusal(request, setup) + " (" + detail + ")";
    } else if (reason == FailureReason.AUTHENTICATION_FAILED
        && !(error instanceof SourceException)) {
      detail =
          request.secretData().isEmpty()
              ? "the remote requires credentials and none were given"
              : request.provider() == GitProvider.GITHUB
                  ? "the remote refused the GitHub App's installation token (" + detail + ")"
                  : "the remote refused the credentials (" + detail + ")";
    }
    if (setup != null && setup.proxyRefusingCredentials() != null) {
      reason = FailureReason.AUTHENTICATION_FAILED;
      detail =
          "the proxy "
              + setup.proxyRefusingCredentials()
              + " refused the username and password of the proxy secret (407 Proxy Authentication "
              + "Required)";
    }
    if (setup != null && setup.redirectedToAnotherOrigin()) {
      detail += " (the remote redirected to another origin; credentials are never sent there)";
    }
    String where =
        error instanceof SourceException
                && (reason.needsSpecChange()
                    || reason == FailureReason.VERIFICATION_FAILED
                    || reason == FailureReason.INCLUDE_UNAVAILABLE)
            ? detail
            : "failed to fetch "
                + request.ref().describe()
                + " from '"
                + Redaction.scrubUrl(request.target().url())
                + "': "
                + detail;
    List<String> secrets = new ArrayList<>(ProviderCredentials.secretValues(request.secretData()));
    secrets.addAll(Redaction.userinfoOf(request.target().url()));
    secrets.addAll(Redaction.textOf(request.target().proxyCredentials()));
    String message = Redaction.scrub(where, secrets);
    LOG.warn("{}: {}", reason.conditionReason(), message);
    return new FetchResult.Failed(reason, message, lastArtifact(request.target().key()));
  }

  /** Why the remote refused the TLS handshake, as far as this side can tell. */
  private static String clientCertificateRefusal(FetchRequest request, TransportSetup setup) {
    if (setup != null && setup.clientCertificatePresented()) {
      return "the remote refused the client certificate of the secret's 'tls.crt'";
    }
    if (request.secretData().containsKey("tls.crt")
        && (setup == null || !setup.redirectedToAnotherOrigin())) {
      return "the remote asked for a client certificate of authorities that did not sign the"
          + " secret's 'tls.crt'";
    }
    return "the remote requires a client certificate ('tls.crt' and 'tls.key' of the secret)";
  }

  private Path sshHome() throws IOException {
    return Files.createDirectories(options.storageRoot().resolve("ssh-home"));
  }

  private static String sourceId(FetchRequest request) {
    GitRef r = request.ref();
    StringBuilder content =
        new StringBuilder(
            String.join(
                "\n",
                request.target().url(),
                String.valueOf(r.branch()),
                String.valueOf(r.tag()),
                String.valueOf(r.semver()),
                String.valueOf(r.name()),
                String.valueOf(r.commit()),
                String.valueOf(request.target().ignore())));
    // What else shapes the artifact; absent, the id is what it was before these fields existed.
    if (request.verification() != null) {
      content.append("\nverify:").append(request.verification().identity());
    }
    for (Inclusion inc : request.includes()) {
      content
          .append("\ninclude:")
          .append(
              String.join(
                  "\0",
                  inc.name(),
                  inc.revision(),
                  inc.digest(),
                  String.valueOf(inc.fromPath()),
                  String.valueOf(inc.toPath())));
    }
    if (!request.sparseCheckout().isEmpty()) {
      content.append("\nsparse:").append(String.join("\0", request.sparseCheckout()));
    }
    if (request.recurseSubmodules()) {
      content.append("\nsubmodules");
    }
    return ArtifactStore.sha256Hex(content.toString());
  }
}
