package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * After names changed (prefix, suffix, content hash), rewrites the fields of other objects that
 * referred to the old names, as kustomize does: ConfigMaps and Secrets in pod specs (volumes,
 * projected volumes, env, envFrom, imagePullSecrets), ServiceAccounts, PersistentVolumeClaims,
 * Roles and ClusterRoles in bindings, Services in StatefulSets and Ingresses.
 */
final class NameReferences {

  /** A field holding a name, and the namespace the named object must be in ("" for cluster-scoped). */
  record Slot(Map<String, Object> holder, String key, String namespace, boolean setsNamespace) {}

  private record Rule(String group, String kind, BiConsumer<Resource, Consumer<Slot>> finder) {}

  private static final List<Rule> RULES =
      List.of(
          new Rule("", "ConfigMap", NameReferences::configMapSlots),
          new Rule("", "Secret", NameReferences::secretSlots),
          new Rule("", "ServiceAccount", NameReferences::serviceAccountSlots),
          new Rule("", "PersistentVolumeClaim", NameReferences::claimSlots),
          new Rule("", "Service", NameReferences::serviceSlots),
          new Rule("rbac.authorization.k8s.io", "Role", (r, s) -> roleRefSlot(r, s, "Role")),
          new Rule("rbac.authorization.k8s.io", "ClusterRole", (r, s) -> roleRefSlot(r, s, "ClusterRole")));

  private NameReferences() {}

  static void fix(List<Resource> resources) {
    for (Resource referrer : resources) {
      for (Rule rule : RULES) {
        List<Slot> slots = new ArrayList<>();
        rule.finder().accept(referrer, slots::add);
        for (Slot slot : slots) {
          rewrite(resources, rule, slot);
        }
      }
    }
  }

  private static void rewrite(List<Resource> resources, Rule rule, Slot slot) {
    if (!(slot.holder().get(slot.key()) instanceof String name)) {
      return;
    }
    for (Resource referral : resources) {
      if (referral.kind().equals(rule.kind())
          && referral.group().equals(rule.group())
          && Objects.equals(referral.namespace(), slot.namespace())
          && referral.hadName(name)) {
        slot.holder().put(slot.key(), referral.name());
        if (slot.setsNamespace() && !referral.namespace().isEmpty()) {
          slot.holder().put("namespace", referral.namespace());
        }
        return;
      }
    }
    if (slot.setsNamespace()) {
      // Binding subjects name their namespace themselves; match by name alone.
      for (Resource referral : resources) {
        if (referral.kind().equals(rule.kind()) && referral.group().isEmpty() && referral.hadName(name)) {
          slot.holder().put(slot.key(), referral.name());
          if (!referral.namespace().isEmpty()) {
            slot.holder().put("namespace", referral.namespace());
          }
          return;
        }
      }
    }
  }

  private static void configMapSlots(Resource resource, Consumer<Slot> slots) {
    String ns = resource.namespace();
    for (Map<String, Object> pod : PodSpecs.of(resource)) {
      for (Map<String, Object> volume : PodSpecs.maps(pod.get("volumes"))) {
        slot(ObjectTree.map(volume.get("configMap")), "name", ns, slots);
        for (Map<String, Object> source : PodSpecs.maps(ObjectTree.get(volume, "projected", "sources"))) {
          slot(ObjectTree.map(source.get("configMap")), "name", ns, slots);
        }
      }
      for (Map<String, Object> container : PodSpecs.containers(pod)) {
        for (Map<String, Object> env : PodSpecs.maps(container.get("env"))) {
          slot(ObjectTree.map(ObjectTree.get(env, "valueFrom", "configMapKeyRef")), "name", ns, slots);
        }
        for (Map<String, Object> envFrom : PodSpecs.maps(container.get("envFrom"))) {
          slot(ObjectTree.map(envFrom.get("configMapRef")), "name", ns, slots);
        }
      }
    }
  }

  private static void secretSlots(Resource resource, Consumer<Slot> slots) {
    String ns = resource.namespace();
    for (Map<String, Object> pod : PodSpecs.of(resource)) {
      for (Map<String, Object> volume : PodSpecs.maps(pod.get("volumes"))) {
        slot(ObjectTree.map(volume.get("secret")), "secretName", ns, slots);
        for (Map<String, Object> source : PodSpecs.maps(ObjectTree.get(volume, "projected", "sources"))) {
          slot(ObjectTree.map(source.get("secret")), "name", ns, slots);
        }
      }
      for (Map<String, Object> container : PodSpecs.containers(pod)) {
        for (Map<String, Object> env : PodSpecs.maps(container.get("env"))) {
          slot(ObjectTree.map(ObjectTree.get(env, "valueFrom", "secretKeyRef")), "name", ns, slots);
        }
        for (Map<String, Object> envFrom : PodSpecs.maps(container.get("envFrom"))) {
          slot(ObjectTree.map(envFrom.get("secretRef")), "name", ns, slots);
        }
      }
      for (Map<String, Object> pullSecret : PodSpecs.maps(pod.get("imagePullSecrets"))) {
        slot(pullSecret, "name", ns, slots);
      }
    }
    if (resource.kind().equals("Ingress")) {
      for (Map<String, Object> tls : PodSpecs.maps(ObjectTree.get(resource.object(), "spec", "tls"))) {
        slot(tls, "secretName", ns, slots);
      }
    }
  }

  private static void serviceAccountSlots(Resource resource, Consumer<Slot> slots) {
    for (Map<String, Object> pod : PodSpecs.of(resource)) {
      slot(pod, "serviceAccountName", resource.namespace(), slots);
      slot(pod, "serviceAccount", resource.namespace(), slots);
    }
    if (isBinding(resource)) {
      for (Map<String, Object> subject : PodSpecs.maps(resource.object().get("subjects"))) {
        if ("ServiceAccount".equals(subject.get("kind"))) {
          String ns = subject.get("namespace") instanceof String s ? s : resource.namespace();
          slots.accept(new Slot(subject, "name", ns, true));
        }
      }
    }
  }

  private static void claimSlots(Resource resource, Consumer<Slot> slots) {
    for (Map<String, Object> pod : PodSpecs.of(resource)) {
      for (Map<String, Object> volume : PodSpecs.maps(pod.get("volumes"))) {
        slot(ObjectTree.map(volume.get("persistentVolumeClaim")), "claimName", resource.namespace(), slots);
      }
    }
  }

  private static void serviceSlots(Resource resource, Consumer<Slot> slots) {
    Map<String, Object> spec = ObjectTree.map(resource.object().get("spec"));
    if (spec == null || !KindTable.isBuiltIn(resource)) {
      return;
    }
    if (resource.kind().equals("StatefulSet")) {
      slot(spec, "serviceName", resource.namespace(), slots);
    }
    if (resource.kind().equals("Ingress")) {
      slot(ObjectTree.map(ObjectTree.get(spec, "defaultBackend", "service")), "name", resource.namespace(), slots);
      for (Map<String, Object> rule : PodSpecs.maps(spec.get("rules"))) {
        for (Map<String, Object> path : PodSpecs.maps(ObjectTree.get(rule, "http", "paths"))) {
          slot(ObjectTree.map(ObjectTree.get(path, "backend", "service")), "name", resource.namespace(), slots);
        }
      }
    }
  }

  private static void roleRefSlot(Resource resource, Consumer<Slot> slots, String kind) {
    if (!isBinding(resource)) {
      return;
    }
    Map<String, Object> roleRef = ObjectTree.map(resource.object().get("roleRef"));
    if (roleRef != null && kind.equals(roleRef.get("kind"))) {
      slots.accept(new Slot(roleRef, "name", kind.equals("Role") ? resource.namespace() : "", false));
    }
  }

  private static boolean isBinding(Resource resource) {
    return resource.group().equals("rbac.authorization.k8s.io")
        && (resource.kind().equals("RoleBinding") || resource.kind().equals("ClusterRoleBinding"));
  }

  private static void slot(Map<String, Object> holder, String key, String namespace, Consumer<Slot> slots) {
    if (holder != null) {
      slots.accept(new Slot(holder, key, namespace, false));
    }
  }
}
