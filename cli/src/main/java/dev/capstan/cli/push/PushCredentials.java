package dev.capstan.cli.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.RegistryCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@code capstan push artifact} finds the registry's credentials, first found first: {@code
 * --creds}, or the first line of standard input with {@code --creds-stdin}, else the environment's
 * {@value #ENVIRONMENT}, else the Docker config ({@code $DOCKER_CONFIG/config.json} or {@code
 * ~/.docker/config.json}) for the registry's host. A password on the command line is seen by every
 * user of the machine in its process list; the other two are not. Messages never hold a credential.
 */
final class PushCredentials {
  /** The environment variable that holds {@code USER[:PASSWORD]}. */
  static final String ENVIRONMENT = "CAPSTAN_REGISTRY_CREDS";

  /** The longest line of credentials read from standard input. */
  static final int MAX_STDIN_BYTES = 64 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Credentials that cannot be read or used: the message names where they came from. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  private final Map<String, String> environment;
  private final InputStream stdin;

  PushCredentials(Map<String, String> environment, InputStream stdin) {
    this.environment = environment;
    this.stdin = stdin;
  }

  /**
   * @param flag {@code --creds}, null when not given
   * @param fromStdin {@code --creds-stdin}
   */
  Optional<RegistryCredentials> find(String flag, boolean fromStdin, String registry)
      throws Unusable {
    if (flag != null && fromStdin) {
      throw new Unusable("--creds and --creds-stdin cannot be given together");
    }
    if (flag != null) {
      return Optional.of(parse(flag, "--creds"));
    }
    if (fromStdin) {
      return Optional.of(parse(firstLineOfStdin(), "--creds-stdin"));
    }
    String fromEnvironment = environment.get(ENVIRONMENT);
    if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
      return Optional.of(parse(fromEnvironment, ENVIRONMENT));
    }
    return dockerConfig(registry);
  }

  private static RegistryCredentials parse(String text, String where) throws Unusable {
    if (text.isEmpty()) {
      throw new Unusable(where + " holds no credentials; expected USER[:PASSWORD]");
    }
    int colon = text.indexOf(':');
    return colon < 0
        ? new RegistryCredentials(text, "")
        : new RegistryCredentials(text.substring(0, colon), text.substring(colon + 1));
  }

  /** The first line of standard input, without its line end; at most {@link #MAX_STDIN_BYTES}. */
  private String firstLineOfStdin() throws Unusable {
    byte[] read;
    try {
      read = stdin.readNBytes(MAX_STDIN_BYTES + 1);
    } catch (IOException e) {
      throw new Unusable("--creds-stdin: standard input cannot be read");
    }
    String text = new String(read, StandardCharsets.UTF_8);
    int end = text.indexOf('\n');
    if (end < 0 && read.length > MAX_STDIN_BYTES) {
      throw new Unusable(
          "--creds-stdin: the first line of standard input is longer than "
              + MAX_STDIN_BYTES
              + " bytes");
    }
    String line = end < 0 ? text : text.substring(0, end);
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  private Optional<RegistryCredentials> dockerConfig(String registry) throws Unusable {
    String dir = environment.get("DOCKER_CONFIG");
    Path file =
        dir != null
            ? Path.of(dir, "config.json")
            : Path.of(System.getProperty("user.home"), ".docker", "config.json");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonNode read = JSON.readTree(Files.readAllBytes(file));
      if (!read.path("auths").isObject()) {
        return Optional.empty();
      }
      return RegistryCredentials.forRegistry(
          registry,
          List.of(Map.of(".dockerconfigjson", read.toString().getBytes(StandardCharsets.UTF_8))));
    } catch (IOException | SourceException e) {
      throw new Unusable("cannot read the Docker config " + file);
    }
  }
}
