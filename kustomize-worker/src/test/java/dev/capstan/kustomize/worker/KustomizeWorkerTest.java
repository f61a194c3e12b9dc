package dev.capstan.kustomize.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker process as the JVM runs it: the binary this build made, unpacked as the jar unpacks
 * it, building below its root and refused by the kernel everywhere else.
 */
class KustomizeWorkerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START = Duration.ofSeconds(30);
  private static final long MIB = 1024 * 1024;

  private static ScheduledExecutorService timer;
  private static WorkerBinary binary;

  @TempDir Path root;

  @BeforeAll
  static void unpack(@TempDir Path cache) {
    timer = Executors.newSingleThreadScheduledExecutor();
    binary = WorkerBinary.forThisMachine(cache.resolve("worker"));
  }

  @AfterAll
  static void stop() {
    timer.shutdownNow();
  }

  private KustomizeWorker start(boolean probes, long memory) throws IOException {
    return start(binary, true, probes, memory);
  }

  private KustomizeWorker start(
      WorkerBinary executable, boolean landlock, boolean probes, long memory) throws IOException {
    return KustomizeWorker.start(
        new KustomizeWorker.Settings(executable, root.toRealPath(), memory, landlock, probes),
        timer,
        START);
  }

  private static JsonNode call(KustomizeWorker worker, Object request) throws IOException {
    byte[] answer =
        worker.call(
            JSON.writeValueAsBytes(request),
            Duration.ofSeconds(30),
            64 * MIB,
            AnswerRoom.UNBOUNDED);
    return JSON.readTree(answer);
  }

  private void file(String path, String content) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  @Test
  void aWorkerBuildsOneRequestAfterAnother() throws IOException {
    file("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
    try (KustomizeWorker worker = start(false, 256 * MIB)) {
      for (String namespace : new String[] {"one", "two"}) {
        JsonNode answer =
            call(
                worker,
                Map.of(
                    "root",
                    root.toRealPath().toString(),
                    "path",
                    "app",
                    "output",
                    "objects",
                    "spec",
                    Map.of("targetNamespace", namespace)));
        assertEquals(
            namespace, answer.at("/objects/0/metadata/namespace").asText(), answer.toString());
      }
    }
  }

  /** The kustomize worker links no Helm: it says so, refuses a render and goes on building. */
  @Test
  void theKustomizeWorkerRendersNoChart() throws IOException {
    file("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
    try (KustomizeWorker worker = start(false, 256 * MIB)) {
      assertFalse(worker.hello().charts(), worker.hello().toString());
      String real = root.toRealPath().toString();
      JsonNode refused =
          call(
              worker,
              Map.of(
                  "root",
                  real,
                  "path",
                  "app",
                  "render",
                  Map.of("releaseName", "r", "namespace", "n")));
      assertEquals("request", refused.at("/error/stage").asText(), refused.toString());
      assertTrue(
          refused.at("/error/message").asText().startsWith("this worker does not render charts"),
          refused.toString());
      JsonNode built = call(worker, Map.of("root", real, "path", "app", "output", "objects"));
      assertEquals("a", built.at("/objects/0/metadata/name").asText(), built.toString());
    }
  }

  /** Each probe runs on a thread the worker started before it entered its sandbox. */
  @Test
  void theKernelRefusesEveryFileOutsideTheRootAndEveryConnection(@TempDir Path elsewhere)
      throws IOException {
    assumeTrue(Platform.host().confinesWorkers(), "the kernel's confinement is Linux's");
    file("app/cm.yaml", "kind: ConfigMap\n");
    Files.writeString(elsewhere.resolve("secret"), "t0ps3cret");
    try (KustomizeWorker worker = start(true, 256 * MIB);
        ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Hello hello = worker.hello();
      assertTrue(hello.confined(), hello.toString());
      assertTrue(hello.landlock() >= 1 && hello.seccomp(), hello.toString());
      assertEquals(256 * MIB, hello.memoryLimit());
      assertEquals("", probe(worker, "open", root.resolve("app/cm.yaml").toString()));
      for (String path :
          new String[] {
            elsewhere.resolve("secret").toString(), "/etc/passwd", "/proc/self/environ"
          }) {
        assertTrue(probe(worker, "open", path).endsWith("permission denied"), path);
      }
      String connect = probe(worker, "connect", "127.0.0.1:" + listener.getLocalPort());
      assertTrue(connect.endsWith("operation not permitted"), connect);
    }
  }

  private static String probe(KustomizeWorker worker, String what, String target)
      throws IOException {
    JsonNode answer = call(worker, Map.of("probe", Map.of(what, target)));
    assertTrue(answer.has("probe"), answer.toString());
    return answer.path("probe").path("error").asText("");
  }

  @Test
  void probesAreRefusedByAWorkerNotStartedForThem() throws IOException {
    try (KustomizeWorker worker = start(false, 256 * MIB)) {
      JsonNode answer = call(worker, Map.of("probe", Map.of("open", "/etc/passwd")));
      assertEquals("request", answer.at("/error/stage").asText(), answer.toString());
      assertFalse(answer.has("probe"));
    }
  }

  @Test
  void aRequestPastItsDeadlineStopsTheWorker() throws IOException {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 60_000; i++) {
      many.append("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c")
          .append(i)
          .append("}\n---\n");
    }
    file("slow/all.yaml", many.toString());
    byte[] request =
        JSON.writeValueAsBytes(
            Map.of("root", root.toRealPath().toString(), "path", "slow", "output", "objects"));
    try (KustomizeWorker worker = start(false, 1024 * MIB)) {
      WorkerException e =
          assertThrows(
              WorkerException.class,
              () -> worker.call(request, Duration.ofSeconds(1), 64 * MIB, AnswerRoom.UNBOUNDED));
      assertEquals(WorkerException.Cause.TIMED_OUT, e.cause());
      assertEquals("the build did not finish within 1s and was stopped", e.getMessage());
      assertFalse(worker.usable());
    }
  }

  @Test
  void aBuildPastTheMemoryLimitEndsTheWorkerAndSaysSo() throws IOException {
    assumeTrue(Platform.host().confinesWorkers(), "the hard memory limit is Linux's");
    file("big/kustomization.yaml", "configMapGenerator: [{name: big, files: [big.txt]}]\n");
    file("big/big.txt", "x".repeat(64 * 1024 * 1024));
    byte[] request =
        JSON.writeValueAsBytes(
            Map.of("root", root.toRealPath().toString(), "path", "big", "output", "objects"));
    try (KustomizeWorker worker = start(false, 64 * MIB)) {
      WorkerException e =
          assertThrows(
              WorkerException.class,
              () -> worker.call(request, Duration.ofSeconds(60), 64 * MIB, AnswerRoom.UNBOUNDED));
      assertEquals(WorkerException.Cause.OUT_OF_MEMORY, e.cause(), e.errorOutput());
      assertFalse(worker.usable());
    }
  }

  @Test
  void aWorkerThatCannotStartSaysWhy() {
    WorkerException e =
        assertThrows(
            WorkerException.class,
            () ->
                KustomizeWorker.start(
                    new KustomizeWorker.Settings(
                        binary, root.resolve("missing"), 256 * MIB, true, false),
                    timer,
                    START));
    assertEquals(WorkerException.Cause.START_FAILED, e.cause());
    assertTrue(e.errorOutput().contains("--root"), e.errorOutput());
  }

  /** As on a kernel without Landlock: the system call filter holds all the same. */
  @Test
  void aWorkerWithoutLandlockStillRefusesSocketsAndIoUring() throws IOException {
    assumeTrue(Platform.host().confinesWorkers(), "the system call filter is Linux's");
    try (KustomizeWorker worker = start(binary, false, true, 256 * MIB)) {
      Hello hello = worker.hello();
      assertFalse(hello.confined(), hello.toString());
      assertEquals(0, hello.landlock());
      assertTrue(hello.seccomp(), hello.toString());
      assertTrue(hello.problem().contains("its system call filter is in force"), hello.problem());
      for (String call : new String[] {"socket", "io_uring_setup"}) {
        assertEquals("operation not permitted", probe(worker, "syscall", call), call);
      }
    }
  }

  /**
   * What the worker's process prints on its standard output (here a frame forged with the first id
   * a counter would give) goes to its standard error: the answer is the request's own.
   */
  @Test
  void whatTheWorkerPrintsCannotForgeAnAnswer() throws IOException {
    String forged = "{\"objects\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}]}";
    byte[] body = forged.getBytes(StandardCharsets.UTF_8);
    ByteBuffer header = ByteBuffer.allocate(Frames.HEADER).putInt(body.length).putLong(1);
    String frame = new String(header.array(), StandardCharsets.ISO_8859_1) + forged;
    try (KustomizeWorker worker = start(true, 256 * MIB)) {
      for (int i = 0; i < 3; i++) {
        JsonNode answer = call(worker, Map.of("probe", Map.of("stdout", frame)));
        assertTrue(answer.has("probe"), answer.toString());
        assertFalse(answer.has("objects"), answer.toString());
      }
    }
  }

  @Test
  void requestIdsAreRandom() {
    RequestIds ids = new RequestIds();
    Set<Long> seen = new HashSet<>();
    long last = ids.next();
    for (int i = 0; i < 1000; i++) {
      long id = ids.next();
      assertTrue(id != 0 && Math.abs(id - last) > 1 << 20, id + " after " + last);
      assertTrue(seen.add(id));
      last = id;
    }
  }

  /**
   * Every start hashes the executable again: one changed since it was unpacked is unpacked anew.
   */
  @Test
  void aChangedExecutableIsUnpackedAgainBeforeItStarts(@TempDir Path cache) throws IOException {
    assumeTrue(Platform.host().confinesWorkers(), "a shell script stands for another program");
    WorkerBinary own = WorkerBinary.forThisMachine(cache.resolve("w"));
    ended(start(own, true, false, 256 * MIB));
    plant(own.path());
    try (KustomizeWorker worker = start(own, true, false, 256 * MIB)) {
      assertTrue(worker.hello().confined());
    }
    assertEquals(
        WorkerBinary.recordedDigests().get(Platform.host().entry(WorkerKind.KUSTOMIZE)),
        WorkerBinary.digestOf(own.path()));
  }

  /** A worker of a given directory (the container image's) that changed is not started. */
  @Test
  void aChangedExecutableOfAGivenDirectoryIsNotStarted(@TempDir Path given) throws IOException {
    assumeTrue(Platform.host().confinesWorkers(), "a shell script stands for another program");
    Path copy = given.resolve(Platform.host().entry(WorkerKind.KUSTOMIZE));
    Files.createDirectories(copy.getParent());
    Files.copy(binary.path(), copy);
    WorkerBinary theirs =
        WorkerBinary.forThisMachine(
            given.resolve("unused"), WorkerKind.KUSTOMIZE, given.toString());
    ended(start(theirs, true, false, 256 * MIB));
    plant(copy);
    WorkerException e =
        assertThrows(WorkerException.class, () -> start(theirs, true, false, 256 * MIB));
    assertEquals(WorkerException.Cause.UNAVAILABLE, e.cause());
    assertTrue(
        e.getMessage()
            .endsWith(
                "no longer has the digest this jar records (it changed after it"
                    + " was checked) and is not started"),
        e.getMessage());
  }

  /** Closes a confined worker and waits until its process is gone (its executable is free). */
  private static void ended(KustomizeWorker worker) {
    assertTrue(worker.hello().confined(), worker.hello().toString());
    long pid = worker.pid();
    worker.close();
    ProcessHandle.of(pid).ifPresent(process -> process.onExit().join());
  }

  /** Another program in the executable's place, with the same size and modification time. */
  private static void plant(Path executable) throws IOException {
    FileTime modified = Files.getLastModifiedTime(executable);
    long size = Files.size(executable);
    Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwx------"));
    byte[] script = "#!/bin/sh\nexit 7\n".getBytes(StandardCharsets.UTF_8);
    try (FileChannel file = FileChannel.open(executable, StandardOpenOption.WRITE)) {
      file.write(ByteBuffer.wrap(script), 0);
    }
    Files.setLastModifiedTime(executable, modified);
    assertEquals(size, Files.size(executable));
  }
}
