package dev.capstan.cli.objects;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code KIND NAME [-n NS]} arguments of commands that act on one Kustomization, GitRepository
 * or OCIRepository: {@link KindArgument} and a required NAME.
 */
final class ObjectArguments extends KindArgument {

  @Parameters(index = "1", paramLabel = "NAME")
  String name;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

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
