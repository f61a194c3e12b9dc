package dev.capstan.kustomize.chart;

/**
 * How a render answers its chart's {@code lookup} calls. The chart worker has no network and no
 * cluster access: it asks the JVM, which asks this, with the identity its caller chose, and answers
 * before the render goes on. An implementation only reads (GET of one object, LIST without a name).
 * The renderer bounds what it answers: how many lookups one render makes, the size of each answer,
 * and the render's own deadline, which holds while a lookup is being answered.
 */
@FunctionalInterface
public interface ChartLookups {
  /**
   * No lookups, as {@code helm template}: the worker is not asked, and {@code lookup} finds nothing
   * (an empty map).
   */
  ChartLookups NONE = lookup -> new LookupAnswer.Missing();

  /**
   * Reads what one {@code lookup} call names.
   *
   * @return the object or list, {@link LookupAnswer.Missing} when it does not exist (Helm's {@code
   *     lookup} then gives an empty map), or {@link LookupAnswer.Refused} when it could not be read
   *     (the template fails, as Helm's {@code lookup} does against a cluster)
   */
  LookupAnswer lookup(LookupQuery lookup);
}
