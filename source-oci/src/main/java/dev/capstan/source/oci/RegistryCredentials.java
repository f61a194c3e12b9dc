package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A username and password for one registry, taken from Docker config JSON as a Secret of type
 * {@code kubernetes.io/dockerconfigjson} holds it (key {@code .dockerconfigjson}, or the older
 * {@code .dockercfg}). The first Secret (in the order given) with an entry for the registry wins.
 */
public record RegistryCredentials(String username, String password) {

  static final String DOCKER_CONFIG_JSON = ".dockerconfigjson";
  static final String DOCKER_CFG = ".dockercfg";

  /** Docker config is small; anything larger is not one. */
  private static final int MAX_CONFIG_BYTES = 1 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Keeps the password out of logs and messages should the record ever be printed. */
  @Override
  public String toString() {
    return "RegistryCredentials[username=" + username + ", password=***]";
  }

  /**
   * The credentials for {@code registry} ({@code host[:port]}) in the given Secrets' data.
   *
   * @throws SourceException {@link FailureReason#INVALID_SECRET} for a Secret that holds no Docker
   *     config or one that cannot be read
   */
  public static Optional<RegistryCredentials> forRegistry(
      String registry, List<Map<String, byte[]>> secrets) {
    for (Map<String, byte[]> secret : secrets) {
      Optional<RegistryCredentials> found = lookUp(registry, authsOf(secret));
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static JsonNode authsOf(Map<String, byte[]> secret) {
    byte[] config = secret.get(DOCKER_CONFIG_JSON);
    boolean legacy = false;
    if (config == null) {
      config = secret.get(DOCKER_CFG);
      legacy = true;
    }
    if (config == null) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "the secret holds no "
              + DOCKER_CONFIG_JSON
              + " (a kubernetes.io/dockerconfigjson "
              + "Secret is expected)");
    }
    if (config.length > MAX_CONFIG_BYTES) {
      throw new SourceException(
          FailureReason.INVALID_SECRET, "the secret's Docker config is larger than 1 MiB");
    }
    try {
      JsonNode root = JSON.readTree(new String(config, StandardCharsets.UTF_8));
      JsonNode auths = legacy ? root : root.path("auths");
      if (!auths.isObject()) {
        throw new IOException("no auths");
      }
      return auths;
    } catch (IOException | RuntimeException e) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "the secret's "
              + (legacy ? DOCKER_CFG : DOCKER_CONFIG_JSON)
              + " is not Docker config "
              + "JSON with an 'auths' object");
    }
  }

  private static Optional<RegistryCredentials> lookUp(String registry, JsonNode auths) {
    List<String> names = new ArrayList<>();
    auths.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      if (hostOf(name).equalsIgnoreCase(registry)
          || (isDockerHub(registry) && isDockerHub(hostOf(name)))) {
        return Optional.of(entry(auths.get(name)));
      }
    }
    return Optional.empty();
  }

  private static RegistryCredentials entry(JsonNode entry) {
    String username = entry.path("username").asText("");
    String password = entry.path("password").asText("");
    String auth = entry.path("auth").asText("");
    if (!auth.isEmpty()) {
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(auth.trim()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new SourceException(
            FailureReason.INVALID_SECRET, "an 'auth' entry of the Docker config is not base64");
      }
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "an 'auth' entry of the Docker config is not base64 of username:password");
      }
      username = decoded.substring(0, colon);
      password = decoded.substring(colon + 1);
    }
    if (username.isEmpty()) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "an entry of the Docker config has neither 'auth' nor 'username'");
    }
    return new RegistryCredentials(username, password);
  }

  /** The host of an auths key: {@code host}, {@code https://host/v1/} or {@code http://host}. */
  static String hostOf(String key) {
    String host = key;
    int scheme = host.indexOf("://");
    if (scheme >= 0) {
      host = host.substring(scheme + 3);
    }
    int slash = host.indexOf('/');
    return slash >= 0 ? host.substring(0, slash) : host;
  }

  private static boolean isDockerHub(String host) {
    return host.equals("docker.io")
        || host.equals("index.docker.io")
        || host.equals("registry-1.docker.io");
  }

  /** Every Secret value that must never appear in a message. */
  static List<String> secretTexts(Collection<Map<String, byte[]>> secrets) {
    List<String> texts = new ArrayList<>();
    for (Map<String, byte[]> secret : secrets) {
      for (byte[] value : secret.values()) {
        texts.add(new String(value, StandardCharsets.UTF_8));
      }
    }
    return texts;
  }
}
