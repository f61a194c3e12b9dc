package dev.capstan.cli.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link FaultyProxy} in front of a kubeconfig's API server, and a copy of that kubeconfig that
 * points at the proxy, for a process whose API connections are to be cut. Made for the local
 * control plane's kubeconfig: a server on loopback, credentials inline, so the copy is deleted on
 * {@link #close}.
 */
public record ProxiedApiServer(FaultyProxy proxy, Path kubeconfig) implements AutoCloseable {
  private static final Pattern SERVER = Pattern.compile("server: https://([^:/\\s]+):(\\d+)");
  private static final List<String> LOOPBACK = List.of("127.0.0.1", "localhost");
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  /**
   * Starts a proxy in front of the server that the kubeconfig {@code source} names and writes the
   * copy that points at it to {@code copy} (owner-only: it holds the client's key).
   *
   * @throws IllegalStateException naming {@code source} when it names no https server on loopback
   */
  public static ProxiedApiServer start(Path source, Path copy) throws IOException {
    Matcher server = SERVER.matcher(Files.readString(source));
    if (!server.find() || !LOOPBACK.contains(server.group(1))) {
      throw new IllegalStateException(
          source + " names no https server on loopback with a port (the local control plane's)");
    }
    FaultyProxy proxy = FaultyProxy.start(server.group(1), Integer.parseInt(server.group(2)));
    try {
      Files.deleteIfExists(copy);
      Files.createFile(copy, OWNER_ONLY);
      Files.writeString(
          copy, server.replaceFirst("server: https://" + server.group(1) + ":" + proxy.port()));
    } catch (IOException | RuntimeException e) {
      proxy.close();
      throw e;
    }
    return new ProxiedApiServer(proxy, copy);
  }

  @Override
  public void close() throws IOException {
    try {
      proxy.close();
    } finally {
      Files.deleteIfExists(kubeconfig);
    }
  }
}
