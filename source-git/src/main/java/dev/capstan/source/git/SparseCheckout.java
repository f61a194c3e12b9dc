package dev.capstan.source.git;

import java.util.ArrayList;
import java.util.List;

/** The directories {@code spec.sparseCheckout} keeps; everything when none are named. */
record SparseCheckout(List<String> dirs) {

  static final SparseCheckout ALL = new SparseCheckout(List.of());

  static SparseCheckout of(List<String> requested) {
    List<String> dirs = new ArrayList<>();
    for (int i = 0; i < requested.size(); i++) {
      String dir = RelativePaths.normalize(requested.get(i), "spec.sparseCheckout[" + i + "]");
      if (dir.isEmpty()) {
        return ALL; // the root: everything
      }
      dirs.add(dir);
    }
    return new SparseCheckout(List.copyOf(dirs));
  }

  /** Whether {@code path} is inside a kept directory, or a directory on the way to one. */
  boolean admits(String path, boolean isDir) {
    if (dirs.isEmpty()) {
      return true;
    }
    for (String dir : dirs) {
      if (path.equals(dir) || path.startsWith(dir + "/") || (isDir && dir.startsWith(path + "/"))) {
        return true;
      }
    }
    return false;
  }
}
