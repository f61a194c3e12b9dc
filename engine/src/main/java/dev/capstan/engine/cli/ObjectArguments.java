package dev.capstan.engine.cli;

import dev.capstan.applier.cli.ClusterOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code KIND NAME [-n NS]} arguments of commands that act on one Kustomization, GitRepository
 * or OCIRepository.
 */
final class ObjectArguments {

  @Parameters(
      index = "0",
      paramLabel = "KIND",
      converter = KindConverter.class,
      description = "ks | kustomizations | gitrepo | gitrepositories | ocirepo | ocirepositories")
  CapstanKind<?> kind;

  @Parameters(index = "1", paramLabel = "NAME")
  String name;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Namespace (default: the kubeconfig context's, else default).")
  String namespace;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** The namespace given, else the kubeconfig context's, else default. */
  String namespace(KubernetesClient client) {
    return ClusterOptions.namespace(client, namespace);
  }

  /**
   * For a command that acts on one kind only: any other KIND is a usage error (exit 2), told as
   * {@code why}.
   */
  void requireKind(CapstanKind<?> only, String why) {
    if (kind != only) {
      throw new ParameterException(
          command.commandLine(),
          "Invalid value for positional parameter at index 0" + " (KIND): " + why);
    }
  }
}
