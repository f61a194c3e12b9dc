package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;

/** The two network operations of a fetch, each retried and bounded by the deadline. */
public final class RemoteOperations {

  private final NetworkRetry retry;

  /**
   * @param retry the retries of each operation; its clock also bounds a single attempt
   */
  public RemoteOperations(NetworkRetry retry) {
    this.retry = retry;
  }

  /** The refs the remote advertises, by full name (plus {@code HEAD}). */
  public Map<String, Ref> listRefs(RemoteUrl url, TransportSetup setup, Instant deadline)
      throws Exception {
    return retry.call(
        "ls-remote",
        deadline,
        setup::hostKeyRejected,
        () ->
            setup
                .apply(Git.lsRemoteRepository())
                .setRemote(url.transportUrl())
                .setTimeout(secondsLeft(deadline))
                .callAsMap());
  }

  /**
   * Fetches {@code refSpecs} into {@code git}'s repository.
   *
   * @param depth 1 for a shallow fetch, 0 for full history
   */
  public void fetch(
      Git git,
      RemoteUrl url,
      List<RefSpec> refSpecs,
      int depth,
      TransportSetup setup,
      Instant deadline)
      throws Exception {
    retry.call(
        "fetch",
        deadline,
        setup::hostKeyRejected,
        () -> {
          var command =
              setup
                  .apply(git.fetch())
                  .setRemote(url.transportUrl())
                  .setRefSpecs(refSpecs)
                  .setTagOpt(TagOpt.NO_TAGS)
                  .setTimeout(secondsLeft(deadline));
          if (depth > 0) {
            command.setDepth(depth);
          }
          return command.call();
        });
  }

  private int secondsLeft(Instant deadline) {
    long millis = Duration.between(retry.clock().instant(), deadline).toMillis();
    if (millis <= 0) {
      throw new SourceException(FailureReason.TIMEOUT, "the fetch timed out");
    }
    // JGit takes whole seconds; round up so that a short remainder still gets its chance.
    return (int) Math.min(Integer.MAX_VALUE, (millis + 999) / 1000);
  }
}
