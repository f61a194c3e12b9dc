package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.capstan.applier.common.Owner;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.ClusterAccess.ClusterSource;
import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The API server restarts in the middle of an apply: the client's retries ride it out, or the
 * reconcile fails for the moment (ApplyFailed, one log line) and is retried; either way it
 * converges once the API server is back, with every object of the revision there.
 */
class ApiServerRestartIT extends EngineTestBase {
  private static final int OBJECTS = 600;

  @Test
  void anApplyCutShortByAnApiServerRestartConvergesWhenItIsBack(ClusterAccess cluster)
      throws Exception {
    assumeTrue(
        cluster.source() == ClusterSource.LOCAL_CONTROL_PLANE,
        "restarting the API server needs the local control plane, not " + cluster.source());
    Map<String, String> files = new HashMap<>();
    for (int i = 0; i < OBJECTS; i++) {
      files.put("app/cm-" + i + ".yaml", Manifests.configMap("cm-" + i, String.valueOf(i)));
    }
    String revision = git.commit(files);
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "  retryInterval: 2s\n  timeout: 1m");

    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    List<Logger> watched =
        List.of(
            (Logger) LoggerFactory.getLogger("dev.capstan"),
            (Logger) LoggerFactory.getLogger("io.javaoperatorsdk"));
    watched.forEach(l -> l.addAppender(log));

    // The moment the first object is written, the apply is under way: pull the API server.
    EngineFixture.eventually(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> owned() > 0);
    int writtenBeforeRestart = owned();
    restartApiServer();
    assertTrue(
        writtenBeforeRestart < OBJECTS,
        "the API server went down after the apply had finished ("
            + writtenBeforeRestart
            + " objects)");

    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(120),
        c -> ("Applied revision: " + revision).equals(c.getMessage()));
    assertEquals(OBJECTS, owned(), "every object of the revision is there");
    assertEquals(OBJECTS, engine.kustomization("app").getStatus().inventory().entries().size());
    watched.forEach(l -> l.detachAppender(log));
    // Whether the client's own retries rode the restart out or the apply failed and was retried,
    // what the engine logged about it is a line, never a stack trace.
    List<ILoggingEvent> traces =
        log.list.stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN) && e.getThrowableProxy() != null)
            .toList();
    assertEquals(List.of(), messages(traces), "warnings and errors with a stack trace");
    log.list.stream()
        .filter(e -> e.getFormattedMessage().contains("apply failed"))
        .forEach(
            e ->
                assertTrue(
                    e.getFormattedMessage().startsWith(ns() + "/app: apply failed: "),
                    e.getFormattedMessage()));
  }

  private static List<String> messages(List<ILoggingEvent> events) {
    return events.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  private static int owned() {
    return engine
        .client
        .configMaps()
        .inNamespace(ns())
        .withLabels(new Owner("app", ns()).labels())
        .list()
        .getItems()
        .size();
  }

  private static void restartApiServer() throws Exception {
    Path log = Files.createTempFile("restart-apiserver", ".log");
    Process restart =
        new ProcessBuilder(
                RepoRoot.find().resolve("deploy/testcluster/restart-apiserver").toString(), "3")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue(restart.waitFor(3, TimeUnit.MINUTES), "restart-apiserver did not finish");
    assertEquals(0, restart.exitValue(), () -> "restart-apiserver failed: " + read(log));
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
