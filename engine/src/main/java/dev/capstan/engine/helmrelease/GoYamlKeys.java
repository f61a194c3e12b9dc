package dev.capstan.engine.helmrelease;

/**
 * The order yaml.v2 writes a map's string keys in: letters compare as characters and before
 * anything else, runs of digits compare as numbers (the shorter run first when equal).
 */
final class GoYamlKeys {
  private GoYamlKeys() {}

  static int compare(String left, String right) {
    if (left.equals(right)) {
      return 0;
    }
    return less(left, right) ? -1 : 1;
  }

  private static boolean less(String left, String right) {
    int[] a = left.codePoints().toArray();
    int[] b = right.codePoints().toArray();
    for (int i = 0; i < a.length && i < b.length; i++) {
      if (a[i] == b[i]) {
        continue;
      }
      boolean aLetter = Character.isLetter(a[i]);
      boolean bLetter = Character.isLetter(b[i]);
      if (aLetter && bLetter) {
        return a[i] < b[i];
      }
      if (aLetter || bLetter) {
        return bLetter;
      }
      return digitsLess(a, b, i);
    }
    return a.length < b.length;
  }

  private static boolean digitsLess(int[] a, int[] b, int i) {
    long an = 0;
    long bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (int j = i - 1; j >= 0 && Character.isDigit(a[j]); j--) {
        if (a[j] != '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    int ai = i;
    while (ai < a.length && Character.isDigit(a[ai])) {
      an = an * 10 + (a[ai] - '0');
      ai++;
    }
    int bi = i;
    while (bi < b.length && Character.isDigit(b[bi])) {
      bn = bn * 10 + (b[bi] - '0');
      bi++;
    }
    if (an != bn) {
      return an < bn;
    }
    if (ai != bi) {
      return ai < bi;
    }
    return a[i] < b[i];
  }
}
