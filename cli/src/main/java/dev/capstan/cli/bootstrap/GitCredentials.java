package dev.capstan.cli.bootstrap;

import dev.capstan.cli.apply.ResultPrinter;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The Git credentials of a bootstrap, as the entries of a GitRepository's Secret: {@code
 * --username}/{@code --password} for http(s), {@code --private-key-file} with {@code
 * --known-hosts-file} for SSH, both stored in a Secret named after the namespace; or {@code
 * --secret-ref}, an existing Secret of the namespace. The push reads them as the engine's fetch
 * does (source-git's transport: no credentials over plain http, only listed SSH host keys).
 */
final class GitCredentials {

  @Option(
      names = {"-u", "--username"},
      paramLabel = "NAME",
      description = "Git user name (http(s)).")
  String username;

  @Option(
      names = {"-p", "--password"},
      paramLabel = "TEXT",
      description = "Git password or access token, or the private key's passphrase.")
  String password;

  @Option(
      names = "--private-key-file",
      paramLabel = "FILE",
      description = "SSH private key (ssh:// URLs); needs --known-hosts-file.")
  Path privateKeyFile;

  @Option(
      names = "--known-hosts-file",
      paramLabel = "FILE",
      description = "The SSH server's host keys, as known_hosts lines: the only keys trusted.")
  Path knownHostsFile;

  @Option(
      names = "--secret-ref",
      paramLabel = "NAME",
      description =
          "An existing Secret in the namespace with the Git credentials (a GitRepository's"
              + " secretRef keys), used for the push and by the GitRepository.")
  String secretRef;

  /** The entries for the push, and the Secret the GitRepository is to use when made here. */
  record Resolved(Map<String, byte[]> data, Secret toCreate) {
    /** Applies the Secret the GitRepository names, when the credentials were given as options. */
    void createSecret(KubernetesClient client, String namespace, ResultPrinter printer) {
      if (toCreate == null) {
        return;
      }
      // Written, never read back here: the push already has the entries.
      client
          .resource(toCreate)
          .inNamespace(namespace)
          .fieldManager("capstan")
          .forceConflicts()
          .serverSideApply();
      printer.line("Secret " + namespace + "/" + toCreate.getMetadata().getName() + " applied");
    }
  }

  /**
   * @throws CliException when the options do not go together
   */
  void check() {
    boolean ssh = privateKeyFile != null;
    if (secretRef != null && (username != null || password != null || ssh)) {
      throw bad("give either --secret-ref or credentials, not both");
    }
    if (ssh && username != null) {
      throw bad("give either --username or --private-key-file, not both");
    }
    if (ssh != (knownHostsFile != null)) {
      throw bad("--private-key-file and --known-hosts-file go together");
    }
    if (!ssh && (username == null) != (password == null)) {
      throw bad("--username and --password go together");
    }
  }

  /** The Secret the GitRepository names, or null without credentials. */
  String secretName(String namespace) {
    if (secretRef != null) {
      return secretRef;
    }
    return username != null || privateKeyFile != null ? namespace : null;
  }

  Resolved resolve(KubernetesClient client, String namespace) {
    if (secretRef != null) {
      try {
        return new Resolved(new SecretReader(client).read(namespace, secretRef).values(), null);
      } catch (SecretUnavailable e) {
        throw new CliException(e.getMessage(), CliException.FAILED);
      }
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (username != null) {
      data.put("username", utf8(username));
    }
    if (privateKeyFile != null) {
      data.put("identity", read(privateKeyFile));
      data.put("known_hosts", read(knownHostsFile));
    }
    if (password != null) {
      data.put("password", utf8(password));
    }
    return new Resolved(data, data.isEmpty() ? null : secret(namespace, data));
  }

  private static Secret secret(String namespace, Map<String, byte[]> data) {
    SecretBuilder secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(namespace)
            .withNamespace(namespace)
            .endMetadata();
    data.forEach((key, value) -> secret.addToData(key, Base64.getEncoder().encodeToString(value)));
    return secret.build();
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw bad("cannot read " + file + ": " + e.getClass().getSimpleName());
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CliException bad(String message) {
    return new CliException(message, CliException.BAD_INPUT);
  }
}
