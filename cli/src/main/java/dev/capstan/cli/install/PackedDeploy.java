package dev.capstan.cli.install;

import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The deploy/ directory as the build packed it into the jar: its kustomization, the CRDs and
 * deploy/install. The jar cannot list a directory, so the tree is found as kustomize finds it, from
 * the kustomizations' {@code resources} and {@code patches} files, and written to a directory the
 * kustomize worker then builds.
 */
final class PackedDeploy {

  /** Where the build puts deploy/ on the class path. */
  static final String PACKED = "dev/capstan/cli/install/deploy/";

  /** The kustomization of the single-tenant install: the CRDs and deploy/install. */
  static final String ROOT = "kustomization.yaml";

  /** The engine with impersonation rights instead of cluster-admin, which ROOT does not reach. */
  static final String MULTI_TENANT = "install/multi-tenant";

  private final ClassLoader loader;

  PackedDeploy(ClassLoader loader) {
    this.loader = loader;
  }

  /** Writes every file the two installs use under {@code target}, as deploy/ holds them. */
  void writeTo(Path target) {
    Deque<String> kustomizations = new ArrayDeque<>();
    kustomizations.add(ROOT);
    kustomizations.add(MULTI_TENANT + "/" + ROOT);
    Set<String> seen = new HashSet<>();
    while (!kustomizations.isEmpty()) {
      String file = kustomizations.poll();
      if (!seen.add(file)) {
        continue;
      }
      byte[] bytes = copy(file, target);
      String dir = parent(file);
      for (String entry : references(file, bytes)) {
        String path = normalize(dir + entry);
        if (path.endsWith(".yaml") || path.endsWith(".yml")) {
          copy(path, target);
        } else {
          kustomizations.add(path + "/" + ROOT);
        }
      }
    }
  }

  /** The files and directories a kustomization names: its resources and its patch files. */
  static List<String> references(String file, byte[] bytes) {
    Object read;
    try {
      read = new BoundedYaml().readOne(new String(bytes, StandardCharsets.UTF_8));
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalStateException("the packed " + file + " is not YAML: " + e.getMessage());
    }
    List<String> all = new ArrayList<>();
    if (!(read instanceof Map<?, ?> kustomization)) {
      return all;
    }
    if (kustomization.get("resources") instanceof List<?> resources) {
      resources.forEach(r -> all.add(String.valueOf(r)));
    }
    if (kustomization.get("patches") instanceof List<?> patches) {
      for (Object patch : patches) {
        if (patch instanceof Map<?, ?> map && map.get("path") instanceof String path) {
          all.add(path);
        }
      }
    }
    return all;
  }

  private byte[] copy(String path, Path target) {
    try (InputStream in = loader.getResourceAsStream(PACKED + path)) {
      if (in == null) {
        throw new IllegalStateException("the jar holds no deploy/" + path);
      }
      byte[] bytes = in.readAllBytes();
      Path file = target.resolve(path);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String parent(String file) {
    int slash = file.lastIndexOf('/');
    return slash < 0 ? "" : file.substring(0, slash + 1);
  }

  /** "install/multi-tenant/../engine" is "install/engine"; nothing may leave deploy/. */
  static String normalize(String path) {
    Deque<String> parts = new ArrayDeque<>();
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (parts.isEmpty()) {
          throw new IllegalStateException("deploy/ refers outside itself: " + path);
        }
        parts.removeLast();
      } else {
        parts.addLast(part);
      }
    }
    return String.join("/", parts);
  }
}
