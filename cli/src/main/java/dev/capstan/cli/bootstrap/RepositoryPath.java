package dev.capstan.cli.bootstrap;

import dev.capstan.cli.cluster.CliException;
import java.util.ArrayList;
import java.util.List;

/** {@code --path}: a directory inside the repository, written as a Kustomization's path is. */
final class RepositoryPath {

  private RepositoryPath() {}

  /**
   * The path without {@code ./}, empty or repeated segments, e.g. {@code clusters/my-cluster}.
   *
   * @throws CliException when it is empty, absolute or leaves the repository
   */
  static String of(String path) {
    if (path.startsWith("/") || path.contains("\\")) {
      throw bad(path);
    }
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (part.equals("..") || part.equals(".git")) {
        throw bad(path);
      }
      if (!part.isEmpty() && !part.equals(".")) {
        parts.add(part);
      }
    }
    if (parts.isEmpty()) {
      throw bad(path);
    }
    return String.join("/", parts);
  }

  private static CliException bad(String path) {
    return new CliException(
        "--path '" + path + "' must be a directory inside the repository, e.g. clusters/my-cluster",
        CliException.BAD_INPUT);
  }
}
