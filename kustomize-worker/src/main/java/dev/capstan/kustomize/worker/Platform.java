package dev.capstan.kustomize.worker;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** An operating system and processor the build worker is compiled for, as Go names them. */
public record Platform(String os, String arch) {

  /** Every platform the jar carries a worker for. */
  public static final List<Platform> SUPPORTED =
      List.of(
          new Platform("linux", "amd64"),
          new Platform("linux", "arm64"),
          new Platform("darwin", "amd64"),
          new Platform("darwin", "arm64"),
          new Platform("windows", "amd64"));

  /** The platform of this JVM, as Go names it; not necessarily a supported one. */
  public static Platform host() {
    return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  static Platform of(String javaOs, String javaArch) {
    String name = javaOs.toLowerCase(Locale.ROOT);
    String os =
        name.startsWith("linux")
            ? "linux"
            : name.startsWith("mac") || name.startsWith("darwin")
                ? "darwin"
                : name.startsWith("windows") ? "windows" : name.replace(' ', '-');
    String arch =
        switch (javaArch.toLowerCase(Locale.ROOT)) {
          case "amd64", "x86_64" -> "amd64";
          case "aarch64", "arm64" -> "arm64";
          default -> javaArch.toLowerCase(Locale.ROOT);
        };
    return new Platform(os, arch);
  }

  public boolean supported() {
    return SUPPORTED.contains(this);
  }

  /** Where the jar keeps this platform's worker of a kind, and its file name. */
  String entry(WorkerKind kind) {
    return os + "-" + arch + "/" + kind.executableName(this);
  }

  /** Only Linux confines the worker by the kernel (Landlock and seccomp). */
  public boolean confinesWorkers() {
    return os.equals("linux");
  }

  static String supportedList() {
    return SUPPORTED.stream().map(Platform::toString).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return os + "/" + arch;
  }
}
