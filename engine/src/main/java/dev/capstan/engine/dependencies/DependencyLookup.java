package dev.capstan.engine.dependencies;

import java.util.Collections;
import java.util.Map;

/** What reading a depended-on object found, as the dependent's identity may see it. */
public sealed interface DependencyLookup {

  /** The object as read. */
  record Found(Map<String, Object> object) implements DependencyLookup {
    public Found {
      object = Collections.unmodifiableMap(object);
    }
  }

  /** No such object. */
  record Missing() implements DependencyLookup {}

  /**
   * The identity the dependent reads as may not get it: counted as not found, so that a tenant
   * learns nothing of objects its service account cannot read. {@code why} says who may not get
   * what.
   */
  record Unreadable(String why) implements DependencyLookup {}

  /** The API server does not serve the apiVersion and kind. */
  record NotServed() implements DependencyLookup {}

  /** The read failed otherwise (the API server unreachable, say). */
  record ReadFailed(String why) implements DependencyLookup {}
}
