package dev.capstan.source.git;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.git.transport.FailureClassifier;
import dev.capstan.source.git.transport.RemoteOperations;
import dev.capstan.source.git.transport.RemoteUrl;
import dev.capstan.source.git.transport.TransportSetup;
import dev.capstan.source.git.transport.UrlScheme;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.errors.LargeObjectException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Fetches the submodules of an exported commit ({@code spec.recurseSubmodules}) into the same
 * repository cache, so the exporter reads their trees like any other. Bounded like the main fetch:
 * the same deadline, the exporter's entry and byte limits, and at most {@link #MAX_NESTING} levels
 * of submodules within submodules. A submodule's URL must be of a scheme the source allows; the
 * GitRepository's credentials go only to a submodule on the parent's own scheme, host and port, any
 * other is fetched anonymously.
 */
final class SubmoduleFetcher implements TreeExporter.Submodules, AutoCloseable {

  static final int MAX_NESTING = 5;
  private static final int MAX_GITMODULES_BYTES = 64 << 10;

  /** A repository whose tree is exported at {@code path} (the root module at {@code ""}). */
  private record Module(String path, RemoteUrl url, ObjectId tree, int nesting) {}

  private final Git git;
  private final Context context;
  private final List<Module> modules = new ArrayList<>();
  private final List<TransportSetup> anonymous = new ArrayList<>();

  /** What a submodule fetch shares with the main fetch. */
  record Context(
      RemoteOperations remote,
      TransportSetup parentSetup,
      Instant deadline,
      Set<UrlScheme> allowedSchemes,
      File sshHome,
      Map<String, byte[]> proxy) {}

  SubmoduleFetcher(Git git, RemoteUrl url, ObjectId rootTree, Context context) {
    this.git = git;
    this.context = context;
    modules.add(new Module("", url, rootTree, 0));
  }

  @Override
  public ObjectId treeOf(String path, ObjectId commit) throws IOException {
    Module parent =
        modules.stream()
            .filter(m -> m.path().isEmpty() || path.startsWith(m.path() + "/"))
            .max(Comparator.comparingInt(m -> m.path().length()))
            .orElseThrow();
    if (parent.nesting() >= MAX_NESTING) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "submodule '" + path + "' nests submodules more than " + MAX_NESTING + " levels deep");
    }
    String relative = parent.path().isEmpty() ? path : path.substring(parent.path().length() + 1);
    String urlText =
        submoduleUrl(parent, relative)
            .orElseThrow(
                () ->
                    new SourceException(
                        FailureReason.GIT_OPERATION_FAILED,
                        "submodule '" + path + "' has no URL in .gitmodules"));
    RemoteUrl url = resolve(parent.url(), urlText, path);
    if (!git.getRepository().getObjectDatabase().has(commit)) {
      fetch(url, path);
    }
    if (!git.getRepository().getObjectDatabase().has(commit)) {
      throw new SourceException(
          FailureReason.REF_NOT_FOUND,
          "submodule '"
              + path
              + "': commit '"
              + commit.name()
              + "' is on no branch of its remote '"
              + url.display()
              + "'");
    }
    try (RevWalk walk = new RevWalk(git.getRepository())) {
      ObjectId tree = walk.parseCommit(commit).getTree();
      modules.add(new Module(path, url, tree, parent.nesting() + 1));
      return tree;
    }
  }

  private void fetch(RemoteUrl url, String path) {
    String space = "refs/submodules/" + ArtifactStore.sha256Hex(url.display()).substring(0, 16);
    try {
      context
          .remote()
          .fetch(
              git,
              url,
              List.of(new RefSpec("+" + Constants.R_HEADS + "*:" + space + "/heads/*")),
              0,
              setupFor(url),
              context.deadline());
    } catch (SourceException e) {
      throw e;
    } catch (Exception e) {
      throw new SourceException(
          FailureClassifier.reasonOf(e),
          "failed to fetch submodule '"
              + path
              + "' from '"
              + url.display()
              + "': "
              + FailureClassifier.detailOf(e));
    }
  }

  private TransportSetup setupFor(RemoteUrl url) {
    RemoteUrl parent = modules.get(0).url();
    if (sameOrigin(parent, url)) {
      return context.parentSetup();
    }
    TransportSetup setup =
        TransportSetup.create(
            url,
            Map.of(),
            context.sshHome(),
            false,
            context.proxy(),
            context.parentSetup().proxyAuthenticators());
    anonymous.add(setup);
    return setup;
  }

  private static boolean sameOrigin(RemoteUrl a, RemoteUrl b) {
    return a.scheme() == b.scheme()
        && a.uri().getHost() != null
        && a.uri().getHost().equalsIgnoreCase(b.uri().getHost())
        && a.uri().getPort() == b.uri().getPort();
  }

  private RemoteUrl resolve(RemoteUrl parent, String url, String path) {
    String absolute = url;
    if (url.startsWith("./") || url.startsWith("../")) {
      // Relative to the parent's URL taken as a directory, as git resolves it.
      String base = parent.transportUrl().replaceAll("/+$", "") + "/";
      absolute = URI.create(base).resolve(url).toString().replaceAll("/+$", "");
    }
    try {
      return RemoteUrl.parse(absolute, context.allowedSchemes());
    } catch (SourceException e) {
      throw new SourceException(
          FailureReason.INVALID_URL, "submodule '" + path + "': " + e.getMessage());
    }
  }

  private Optional<String> submoduleUrl(Module parent, String relative) throws IOException {
    try (TreeWalk walk =
        TreeWalk.forPath(git.getRepository(), Constants.DOT_GIT_MODULES, parent.tree())) {
      if (walk == null) {
        return Optional.empty();
      }
      byte[] bytes =
          git.getRepository().open(walk.getObjectId(0)).getCachedBytes(MAX_GITMODULES_BYTES);
      Config config = new Config();
      config.fromText(new String(bytes, StandardCharsets.UTF_8));
      for (String name : config.getSubsections("submodule")) {
        if (relative.equals(config.getString("submodule", name, "path"))) {
          return Optional.ofNullable(config.getString("submodule", name, "url"));
        }
      }
      return Optional.empty();
    } catch (ConfigInvalidException | LargeObjectException e) {
      throw new SourceException(
          FailureReason.GIT_OPERATION_FAILED,
          "the .gitmodules of '"
              + (parent.path().isEmpty() ? "/" : parent.path())
              + "' is unreadable");
    }
  }

  @Override
  public void close() {
    anonymous.forEach(TransportSetup::close);
  }
}
