package dev.capstan.applier.build;

/** Where something came from: a file relative to the artifact root and a 1-based line (0 = unknown). */
record Origin(String file, int line) {
  static Origin of(String file) {
    return new Origin(file, 0);
  }

  Origin atLine(int newLine) {
    return new Origin(file, newLine);
  }
}
