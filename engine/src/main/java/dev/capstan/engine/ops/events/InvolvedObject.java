package dev.capstan.engine.ops.events;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;

/** The object an event is about, as Kubernetes identifies it. */
record InvolvedObject(String apiVersion, String kind, String namespace, String name, String uid) {

  static InvolvedObject of(HasMetadata object) {
    if (object == null || object.getMetadata() == null || object.getMetadata().getName() == null) {
      throw new IllegalArgumentException("an event needs an object with metadata.name");
    }
    return new InvolvedObject(
        object.getApiVersion(),
        object.getKind(),
        object.getMetadata().getNamespace(),
        object.getMetadata().getName(),
        object.getMetadata().getUid());
  }

  /** Events of a cluster-scoped object go to {@code default}, as Kubernetes does it. */
  String eventNamespace() {
    return namespace == null || namespace.isEmpty() ? "default" : namespace;
  }

  ObjectReference reference() {
    return new ObjectReferenceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withNamespace(namespace)
        .withName(name)
        .withUid(uid)
        .build();
  }

  @Override
  public String toString() {
    return kind + "/" + (namespace == null ? "" : namespace + "/") + name;
  }
}
