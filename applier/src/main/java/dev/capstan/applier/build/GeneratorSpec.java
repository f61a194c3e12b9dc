package dev.capstan.applier.build;

import java.util.List;
import java.util.Map;

/** One entry of {@code configMapGenerator} or {@code secretGenerator}. */
record GeneratorSpec(
    Kind kind,
    String name,
    String namespace,
    Behavior behavior,
    List<String> literals,
    List<String> files,
    List<String> envs,
    String type,
    Map<String, String> labels,
    Map<String, String> annotations,
    boolean hashSuffix,
    boolean immutable,
    Origin origin) {

  enum Kind {
    CONFIG_MAP,
    SECRET
  }

  /** What to do when an object of the same name already exists in the build. */
  enum Behavior {
    CREATE,
    REPLACE,
    MERGE
  }
}
