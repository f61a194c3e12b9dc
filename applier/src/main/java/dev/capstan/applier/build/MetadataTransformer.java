package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adds labels or annotations where kustomize adds them: to every object's metadata, and, depending
 * on the options, to pod templates and label selectors of the built-in workload kinds.
 */
final class MetadataTransformer {
  private static final Set<String> POD_TEMPLATE_KINDS =
      Set.of("Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "ReplicationController");
  private static final Set<String> MATCH_LABEL_KINDS =
      Set.of("Deployment", "ReplicaSet", "DaemonSet", "StatefulSet");

  private static final List<FieldSpec> LABEL_TEMPLATES =
      List.of(
          FieldSpec.of(POD_TEMPLATE_KINDS, "spec/template/metadata/labels", true),
          FieldSpec.of(Set.of("StatefulSet"), "spec/volumeClaimTemplates[]/metadata/labels", true),
          FieldSpec.of(Set.of("CronJob"), "spec/jobTemplate/metadata/labels", true),
          FieldSpec.of(Set.of("CronJob"), "spec/jobTemplate/spec/template/metadata/labels", true));

  private static final List<FieldSpec> LABEL_SELECTORS =
      List.of(
          FieldSpec.of(Set.of("Service", "ReplicationController"), "spec/selector", true),
          FieldSpec.of(MATCH_LABEL_KINDS, "spec/selector/matchLabels", true),
          FieldSpec.of(Set.of("Job"), "spec/selector/matchLabels", false),
          FieldSpec.of(Set.of("CronJob"), "spec/jobTemplate/spec/selector/matchLabels", false),
          FieldSpec.of(Set.of("PodDisruptionBudget"), "spec/selector/matchLabels", false),
          FieldSpec.of(Set.of("NetworkPolicy"), "spec/podSelector/matchLabels", false),
          FieldSpec.of(Set.of("NetworkPolicy"), "spec/ingress[]/from[]/podSelector/matchLabels", false),
          FieldSpec.of(Set.of("NetworkPolicy"), "spec/egress[]/to[]/podSelector/matchLabels", false));

  private static final List<FieldSpec> ANNOTATION_TEMPLATES =
      List.of(
          FieldSpec.of(POD_TEMPLATE_KINDS, "spec/template/metadata/annotations", true),
          FieldSpec.of(Set.of("CronJob"), "spec/jobTemplate/metadata/annotations", true),
          FieldSpec.of(
              Set.of("CronJob"), "spec/jobTemplate/spec/template/metadata/annotations", true));

  private final Map<String, String> pairs;
  private final List<FieldSpec> specs;

  private MetadataTransformer(Map<String, String> pairs, List<FieldSpec> specs) {
    this.pairs = pairs;
    this.specs = specs;
  }

  /** Labels as {@code labels} (or {@code commonLabels}, which includes selectors and templates). */
  static MetadataTransformer labels(Kustomization.LabelSpec spec) {
    List<FieldSpec> specs = new ArrayList<>();
    specs.add(FieldSpec.everywhere("metadata/labels"));
    if (spec.includeSelectors() || spec.includeTemplates()) {
      specs.addAll(LABEL_TEMPLATES);
    }
    if (spec.includeSelectors()) {
      specs.addAll(LABEL_SELECTORS);
    }
    return new MetadataTransformer(spec.pairs(), specs);
  }

  static MetadataTransformer annotations(Map<String, String> annotations) {
    List<FieldSpec> specs = new ArrayList<>();
    specs.add(FieldSpec.everywhere("metadata/annotations"));
    specs.addAll(ANNOTATION_TEMPLATES);
    return new MetadataTransformer(annotations, specs);
  }

  /** Labels or annotations on object metadata only, as a Kustomization's commonMetadata does. */
  static MetadataTransformer metadataOnly(String field, Map<String, String> pairs) {
    return new MetadataTransformer(pairs, List.of(FieldSpec.everywhere("metadata/" + field)));
  }

  void apply(List<Resource> resources) {
    if (pairs.isEmpty()) {
      return;
    }
    for (Resource resource : resources) {
      for (FieldSpec spec : specs) {
        if (spec.appliesTo(resource)) {
          spec.visit(resource.object(), map -> map.putAll(pairs));
        }
      }
    }
  }
}
