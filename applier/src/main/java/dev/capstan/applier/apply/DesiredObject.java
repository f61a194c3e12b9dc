package dev.capstan.applier.apply;

import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.ignore.JsonPointer;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An object exactly as Capstan sends it: namespace settled, status dropped, a Secret's {@code
 * stringData} folded into {@code data}, ownership labels and the digest annotation added. The
 * digest covers everything else Capstan sends, except the fields the ignore rules leave out for it:
 * a change of an ignored field in the source alone is not a change. Equality is identity: two
 * prepared objects are the same write only if they are the same instance.
 *
 * <p>Identity and type are known at once; the copy and its digest are made on first use, so that an
 * apply can start reading the live objects (which needs identities only) before it has spent the
 * time to digest a thousand objects.
 */
public final class DesiredObject {

  private final ObjectRef ref;
  private final ResourceType type;
  private final GenericKubernetesResource raw;
  private final Owner owner;
  private final IgnoreRules rules;
  private GenericKubernetesResource object; // guarded by this
  private String digest; // guarded by this
  private List<JsonPointer> ignored; // guarded by this
  private volatile String json;

  private DesiredObject(
      ObjectRef ref,
      ResourceType type,
      GenericKubernetesResource raw,
      Owner owner,
      IgnoreRules rules) {
    this.ref = ref;
    this.type = type;
    this.raw = raw;
    this.owner = owner;
    this.rules = rules;
  }

  public static DesiredObject prepare(
      GenericKubernetesResource raw, ResourceType type, Owner owner, String defaultNamespace) {
    return prepare(raw, type, owner, defaultNamespace, IgnoreRules.NONE);
  }

  /** An object as sent, with the fields {@code rules} ignore for it left out of its digest. */
  public static DesiredObject prepare(
      GenericKubernetesResource raw,
      ResourceType type,
      Owner owner,
      String defaultNamespace,
      IgnoreRules rules) {
    String namespace = raw.getMetadata().getNamespace();
    if (!type.namespaced()) {
      namespace = null;
    } else if (namespace == null || namespace.isEmpty()) {
      namespace = defaultNamespace;
    }
    ObjectRef named = ObjectRef.of(raw);
    ObjectRef ref =
        new ObjectRef(named.group(), named.version(), named.kind(), namespace, named.name());
    return new DesiredObject(ref, type, raw, owner, rules);
  }

  public ObjectRef ref() {
    return ref;
  }

  public ResourceType type() {
    return type;
  }

  /** The object as sent, digest annotation included; the caller must not change it. */
  public synchronized GenericKubernetesResource object() {
    if (object == null) {
      object = settled();
      ignored =
          rules.pointersFor(
              ref, object.getMetadata().getLabels(), object.getMetadata().getAnnotations());
      digest = digestOf(object, ignored);
    }
    return object;
  }

  public synchronized String digest() {
    object();
    return digest;
  }

  /** The fields the ignore rules leave out for this object; empty for most objects. */
  public synchronized List<JsonPointer> ignored() {
    object();
    return ignored;
  }

  /**
   * The same object with another body to send: this one with its ignored fields resolved against
   * the live object. Ownership labels and the digest annotation are kept whatever the body holds.
   */
  DesiredObject sending(GenericKubernetesResource body) {
    GenericKubernetesResource copy = Serialization.clone(body);
    ObjectMeta meta = copy.getMetadata();
    Map<String, String> labels = new LinkedHashMap<>();
    if (meta.getLabels() != null) {
      labels.putAll(meta.getLabels());
    }
    labels.putAll(owner.labels());
    meta.setLabels(labels);
    Map<String, String> annotations = new LinkedHashMap<>();
    if (meta.getAnnotations() != null) {
      annotations.putAll(meta.getAnnotations());
    }
    annotations.put(CapstanMetadata.APPLIED_DIGEST, digest());
    meta.setAnnotations(annotations);
    DesiredObject resolved = new DesiredObject(ref, type, raw, owner, rules);
    synchronized (resolved) {
      resolved.object = copy;
      resolved.digest = digest();
      resolved.ignored = ignored();
    }
    return resolved;
  }

  private GenericKubernetesResource settled() {
    GenericKubernetesResource copy = Serialization.clone(raw);
    copy.getAdditionalProperties().remove("status");
    SecretStringData.fold(copy);
    ObjectMeta meta = copy.getMetadata();
    meta.setNamespace(ref.namespace().isEmpty() ? null : ref.namespace());
    Map<String, String> labels = new LinkedHashMap<>();
    if (meta.getLabels() != null) {
      labels.putAll(meta.getLabels());
    }
    labels.putAll(owner.labels());
    meta.setLabels(labels);
    return copy;
  }

  /**
   * Digests the object without any digest annotation and without its ignored fields, then adds the
   * annotation.
   */
  private static String digestOf(GenericKubernetesResource object, List<JsonPointer> ignored) {
    ObjectMeta meta = object.getMetadata();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (meta.getAnnotations() != null) {
      annotations.putAll(meta.getAnnotations());
    }
    annotations.remove(CapstanMetadata.APPLIED_DIGEST);
    meta.setAnnotations(annotations.isEmpty() ? null : annotations);
    Map<String, Object> digested = asMap(object);
    ignored.forEach(pointer -> pointer.remove(digested));
    String digest = ManifestDigest.of(digested);
    annotations.put(CapstanMetadata.APPLIED_DIGEST, digest);
    meta.setAnnotations(annotations);
    return digest;
  }

  /**
   * The object as the JSON body of an apply, serialized once: a first apply sends each object twice
   * (dry-run, then the write).
   */
  public String json() {
    String body = json;
    if (body == null) {
      body = Serialization.asJson(object());
      json = body;
    }
    return body;
  }

  @Override
  public String toString() {
    return "DesiredObject[" + ref + "]";
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> asMap(Object object) {
    return Serialization.jsonMapper().convertValue(object, Map.class);
  }

  public boolean isCrd() {
    return type.isCrd();
  }

  public boolean isNamespace() {
    return type.isNamespace();
  }
}
