package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pause's watchdog: a process left stopped is continued without the JVM that stopped it. */
class ControlPlaneTest {

  @Test
  void theWatchdogContinuesAStoppedProcess() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "60").start();
    try {
      long pid = sleeper.pid();
      new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
      awaitState(pid, 'T');
      ControlPlane.startWatchdog(pid, 1);
      awaitState(pid, 'S');
    } finally {
      sleeper.destroyForcibly();
    }
  }

  /** Waits (at most 10 s) until the process's state in /proc is {@code state}. */
  private static void awaitState(long pid, char state) throws Exception {
    char now = ' ';
    for (int i = 0; i < 100; i++) {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      now = stat.charAt(stat.lastIndexOf(')') + 2);
      if (now == state) {
        return;
      }
      Thread.sleep(100);
    }
    assertEquals(state, now);
  }
}
