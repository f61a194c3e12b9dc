package dev.capstan.engine.cache;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reading in which the values of fields that thousands of objects repeat (namespaces, kinds, API
 * versions, condition words and messages, revisions, the owner labels) are kept once per distinct
 * value: a controller's caches hold thousands of objects whose such fields are a few strings, each
 * otherwise a copy of its own (strings are a third of the live heap of an engine with 1,000
 * Kustomizations, and most of them were such copies).
 *
 * <p>Only the fields named here are shared, so that what each object has alone (names, uids,
 * resource versions) is never kept, and only values of at most {@value #MAX_LENGTH} characters, so
 * that a long message (a tenant's object may say anything) is never kept either; at most {@code
 * limit} distinct values are kept, and all of them are let go when that many are reached.
 */
public final class SharedStrings extends SimpleModule {

  /** The distinct values kept by default: far more than a cluster's namespaces and kinds. */
  public static final int DEFAULT_LIMIT = 4_096;

  /** The longest value shared. */
  static final int MAX_LENGTH = 256;

  private static final Set<String> SHARED_FIELDS =
      Set.of(
          "namespace",
          "apiVersion",
          "kind",
          "v",
          "type",
          "status",
          "reason",
          "message",
          "revision",
          "digest",
          "lastAppliedRevision",
          "lastAttemptedRevision",
          "lastAppliedOriginRevision",
          "lastTransitionTime",
          "kustomize.capstan.dev/name",
          "kustomize.capstan.dev/namespace");

  private final transient Map<String, String> values = new ConcurrentHashMap<>();

  public SharedStrings() {
    this(DEFAULT_LIMIT);
  }

  SharedStrings(int limit) {
    super("capstan-shared-strings");
    addDeserializer(String.class, new SharingDeserializer(values, limit));
  }

  /** The API client's serialization, reading as this module does. */
  public static KubernetesSerialization serialization() {
    return new KubernetesSerialization(
        new ObjectMapper().registerModule(new SharedStrings()), true);
  }

  /** How many distinct values are kept now. */
  int kept() {
    return values.size();
  }

  private static final class SharingDeserializer extends StdScalarDeserializer<String> {
    private final transient Map<String, String> values;
    private final int limit;

    SharingDeserializer(Map<String, String> values, int limit) {
      super(String.class);
      this.values = values;
      this.limit = limit;
    }

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      String value = StringDeserializer.instance.deserialize(p, ctxt);
      String field = p.currentName();
      if (value == null
          || value.length() > MAX_LENGTH
          || field == null
          || !SHARED_FIELDS.contains(field)) {
        return value;
      }
      String kept = values.putIfAbsent(value, value);
      if (kept != null) {
        return kept;
      }
      if (values.size() > limit) {
        values.clear(); // a burst of distinct values: start again rather than keep them all
      }
      return value;
    }

    @Override
    public LogicalType logicalType() {
      return LogicalType.Textual;
    }

    @Override
    public boolean isCachable() {
      return true;
    }

    @Override
    public Object getEmptyValue(DeserializationContext ctxt) {
      return "";
    }
  }
}
