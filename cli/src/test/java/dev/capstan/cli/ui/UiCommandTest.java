package dev.capstan.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `capstan ui` refuses to serve beyond loopback unless told to. */
class UiCommandTest {

  @Test
  void aNonLoopbackAddressNeedsAllowRemote(@TempDir Path dir) throws IOException {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);

    CliRun run = CliRun.capstan(kubeconfig, "ui", "--addr", "0.0.0.0:0");

    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(run.err().contains("--allow-remote"), run::toString);
  }

  @Test
  void aBadAddressIsBadInput(@TempDir Path dir) throws IOException {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);

    CliRun run = CliRun.capstan(kubeconfig, "ui", "--addr", "127.0.0.1:notaport");

    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(run.err().contains("--addr"), run::toString);
  }
}
