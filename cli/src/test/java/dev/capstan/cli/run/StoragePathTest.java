package dev.capstan.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where `capstan run` keeps artifacts when told nothing: the user's own, private directory. */
class StoragePathTest {

  @Test
  void theDefaultStoragePathIsUnderTheUsersHomeNotASharedTemporaryDirectory() {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs();
    Path home = Path.of(System.getProperty("user.home"));
    assertEquals(home.resolve(".cache/capstan/artifacts"), run.storagePath);
  }

  @Test
  void aStorageDirectoryTheEngineCreatesIsItsUsersAlone(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("a/b/artifacts");
    RunCommand.createPrivately(dir);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    RunCommand.createPrivately(dir); // an existing directory is used as it is
    assertTrue(Files.isDirectory(dir));
  }
}
