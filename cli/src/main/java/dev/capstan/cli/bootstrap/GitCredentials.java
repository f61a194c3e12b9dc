package dev.capstan.cli.bootstrap;

import dev.capstan.cli.apply.ResultPrinter;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import picocli.CommandLine.Option;

/**
 * The Git credentials of a bootstrap: given as {@code --username}/{@code --password}, which are
 * used for the push and stored in a Secret named after the namespace for the GitRepository, or
 * {@code --secret-ref}, an existing Secret of the namespace with {@code username} and {@code
 * password} that serves both.
 */
final class GitCredentials {

  @Option(
      names = {"-u", "--username"},
      paramLabel = "NAME",
      description = "Git user name.")
  String username;

  @Option(
      names = {"-p", "--password"},
      paramLabel = "TEXT",
      description = "Git password or access token; stored in Secret NAMESPACE for the engine.")
  String password;

  @Option(
      names = "--secret-ref",
      paramLabel = "NAME",
      description =
          "An existing Secret in the namespace with username and password, used for the push and"
              + " by the GitRepository.")
  String secretRef;

  /** The credentials for the push, and the Secret the GitRepository is to use. */
  record Resolved(CredentialsProvider provider, Secret toCreate) {
    /** Applies the Secret the GitRepository names, when the credentials were given as options. */
    void createSecret(KubernetesClient client, String namespace, ResultPrinter printer) {
      if (toCreate == null) {
        return;
      }
      client
          .secrets()
          .inNamespace(namespace)
          .resource(toCreate)
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
    if ((username == null) != (password == null)) {
      throw new CliException("--username and --password go together", CliException.BAD_INPUT);
    }
    if (secretRef != null && username != null) {
      throw new CliException(
          "give either --secret-ref or --username and --password", CliException.BAD_INPUT);
    }
  }

  /** The Secret the GitRepository names, or null without credentials. */
  String secretName(String namespace) {
    return secretRef != null ? secretRef : username != null ? namespace : null;
  }

  Resolved resolve(KubernetesClient client, String namespace) {
    if (username != null) {
      Secret secret =
          new SecretBuilder()
              .withNewMetadata()
              .withName(namespace)
              .withNamespace(namespace)
              .endMetadata()
              .addToStringData("username", username)
              .addToStringData("password", password)
              .build();
      return new Resolved(new UsernamePasswordCredentialsProvider(username, password), secret);
    }
    if (secretRef == null) {
      return new Resolved(null, null);
    }
    try {
      SecretEntries entries = new SecretReader(client).read(namespace, secretRef);
      String user = entries.text("username").orElse(null);
      String pass = entries.text("password").orElse(null);
      if (user == null || pass == null) {
        throw new CliException(
            entries.where() + " has no username and password for Git over http(s)",
            CliException.FAILED);
      }
      return new Resolved(new UsernamePasswordCredentialsProvider(user, pass), null);
    } catch (SecretUnavailable e) {
      throw new CliException(e.getMessage(), CliException.FAILED);
    }
  }
}
