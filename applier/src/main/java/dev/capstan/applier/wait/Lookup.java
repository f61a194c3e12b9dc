package dev.capstan.applier.wait;

import java.util.Collections;
import java.util.Map;

/** What looking up one object gave: the object, or why its health is decided without it. */
public sealed interface Lookup {

  /** The object as read (from the API server or a cache). */
  record Found(Map<String, Object> object) implements Lookup {
    public Found {
      object = Collections.unmodifiableMap(object);
    }
  }

  /** Not read; {@code message} says why, for the user. */
  record NotRead(WaitReason reason, String message) implements Lookup {}

  static Lookup found(Map<String, Object> object) {
    return new Found(object);
  }

  static Lookup notFound() {
    return new NotRead(WaitReason.NOT_FOUND, "not found");
  }

  static Lookup kindNotServed(String apiVersion, String kind) {
    return new NotRead(
        WaitReason.KIND_NOT_SERVED, "the API server does not serve " + apiVersion + "/" + kind);
  }

  static Lookup readFailed(String detail) {
    return new NotRead(WaitReason.READ_FAILED, "cannot read: " + detail);
  }

  static Lookup notRead(WaitReason reason, String message) {
    return new NotRead(reason, message);
  }
}
