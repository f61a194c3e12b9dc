package dev.capstan.api.helm;

/**
 * What an install or upgrade does with the CRDs of the chart's {@code crds/} directory; the
 * constants are the API's values.
 */
public enum CrdsPolicy {
  /** Leave them out. */
  Skip,
  /** Create the missing ones, change none (an install's default). */
  Create,
  /** Create the missing ones and replace the others. */
  CreateReplace
}
