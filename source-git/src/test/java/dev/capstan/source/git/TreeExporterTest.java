package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TreeExporterTest {

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
  private static final TreeExporter.Limits LIMITS = new TreeExporter.Limits(1 << 20, 1_000);

  @TempDir Path tmp;
  private Repository repo;

  @BeforeEach
  void setUp() throws Exception {
    repo =
        Git.init()
            .setBare(true)
            .setDirectory(tmp.resolve("repo.git").toFile())
            .call()
            .getRepository();
  }

  @AfterEach
  void tearDown() {
    repo.close();
  }

  @ParameterizedTest
  @CsvSource({
    "a/link, target, true",
    "a/link, ../b/c, true",
    "a/link, ./x/../y, true",
    "link, ., true",
    "link, .., false",
    "a/link, ../../etc/passwd, false",
    "link, /etc/passwd, false",
    "a/b/link, ../../../x, false",
    "a/link, x/../../../y, false"
  })
  void symlinkTextMustStayInsideTheTree(String path, String target, boolean inside) {
    assertEquals(inside, TreeExporter.staysInside(path, target));
  }

  @Test
  void aSourceIgnoreRuleWithManyStarsDoesNotHoldTheExport() throws Exception {
    String name = "a".repeat(100);
    ObjectId tree =
        tree(Map.of(".sourceignore", "*a*a*a*a*a*a*a*a*b\n", name, "x", name + "b", "y"));
    Deadline deadline = new Deadline(Clock.systemUTC(), Instant.now().plusSeconds(60));
    Path out = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> export(tree, deadline));
    assertTrue(Files.exists(out.resolve(name)));
    assertTrue(Files.notExists(out.resolve(name + "b")));
  }

  @Test
  void theWalkStopsOnceTheDeadlineHasPassed() throws Exception {
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      files.put("file" + i + ".yaml", "x");
    }
    ObjectId tree = tree(files);
    // The clock reads the start for the first checks, an hour later after that.
    AtomicInteger reads = new AtomicInteger();
    Clock clock =
        new Clock() {
          @Override
          public ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return reads.incrementAndGet() <= 5 ? START : START.plusSeconds(3_600);
          }
        };
    SourceException e =
        assertThrows(
            SourceException.class, () -> export(tree, new Deadline(clock, START.plusSeconds(1))));
    assertEquals(FailureReason.TIMEOUT, e.reason());
    assertEquals("the fetch timed out while writing the tree", e.getMessage());
  }

  @Test
  void namesLongerThanFileSystemsHoldAreRefused() throws Exception {
    Deadline deadline = new Deadline(Clock.systemUTC(), Instant.MAX);
    Path out = export(tree(Map.of("x".repeat(255), "fits")), deadline);
    assertEquals("fits", Files.readString(out.resolve("x".repeat(255))));

    ObjectId tooLong = tree(Map.of("x".repeat(256), "does not fit"));
    SourceException e = assertThrows(SourceException.class, () -> export(tooLong, deadline));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, e.reason());
    assertEquals(
        "the tree has an entry in '/' whose name is longer than 255 bytes", e.getMessage());
  }

  /** A tree of files in one directory, written straight into the object database. */
  private ObjectId tree(Map<String, String> files) throws IOException {
    TreeFormatter tree = new TreeFormatter();
    try (ObjectInserter inserter = repo.newObjectInserter()) {
      for (var file : new TreeMap<>(files).entrySet()) {
        byte[] content = file.getValue().getBytes(StandardCharsets.UTF_8);
        tree.append(
            file.getKey(), FileMode.REGULAR_FILE, inserter.insert(Constants.OBJ_BLOB, content));
      }
      ObjectId id = inserter.insert(tree);
      inserter.flush();
      return id;
    }
  }

  private Path export(ObjectId tree, Deadline deadline) throws IOException {
    Path out = Files.createTempDirectory(tmp, "out");
    try (var reader = repo.newObjectReader()) {
      TreeExporter.export(reader, tree, null, out, LIMITS, SparseCheckout.ALL, null, deadline);
    }
    return out;
  }
}
