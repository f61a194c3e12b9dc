package dev.capstan.health.kstatus;

import dev.capstan.health.status.Condition;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.GenerationCheck;
import dev.capstan.health.status.GenericRules;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The kstatus computation for an object that no CEL check covers: generation, the standard
 * Reconciling/Stalled conditions, the rule of its kind, else the generic layer ({@link
 * GenericRules}: readiness conditions, condition generations, status vocabularies, else Current).
 */
public final class KstatusRules {
  /** The rule of a built-in kind and its attribution, one shared instance per kind. */
  private record Attributed(KindRule rule, DecidedBy by) {}

  /** By API group, then kind. */
  private final Map<String, Map<String, Attributed>> rules;

  public KstatusRules(Clock clock) {
    Map<String, KindRule> apps =
        Map.of(
            "Deployment", DeploymentRule::evaluate,
            "StatefulSet", StatefulSetRule::evaluate,
            "DaemonSet", DaemonSetRule::evaluate,
            "ReplicaSet", ReplicaSetRule::replicaSet);
    Map<String, KindRule> extensions = new HashMap<>(apps);
    extensions.put("Ingress", ServiceRules::ingress);
    this.rules =
        attributed(
            Map.of(
                "",
                Map.of(
                    "Pod", new PodRule(clock),
                    "Service", ServiceRules::service,
                    "PersistentVolumeClaim", ServiceRules::persistentVolumeClaim,
                    "ReplicationController", ReplicaSetRule::replicationController,
                    "Secret", KstatusRules::alwaysReady,
                    "ConfigMap", KstatusRules::alwaysReady),
                "apps",
                apps,
                "extensions",
                extensions,
                "batch",
                Map.of("Job", JobRule::evaluate, "CronJob", CronJobRule::evaluate),
                "policy",
                Map.of("PodDisruptionBudget", KstatusRules::disruptionBudget),
                "networking.k8s.io",
                Map.of("Ingress", ServiceRules::ingress),
                "apiextensions.k8s.io",
                Map.of("CustomResourceDefinition", ApiRules::customResourceDefinition),
                "apiregistration.k8s.io",
                Map.of("APIService", ApiRules::apiService)));
  }

  public ResourceStatus evaluate(ObjectView object, String group, String kind) {
    ResourceStatus generation = GenerationCheck.strict(object, kind);
    if (generation != null) {
      return generation.decidedBy(DecidedBy.kstatus(DecidedBy.KstatusRule.GENERATION));
    }
    ResourceStatus standard = standardConditions(object);
    if (standard != null) {
      return standard.decidedBy(DecidedBy.kstatus(DecidedBy.KstatusRule.STANDARD_CONDITIONS));
    }
    Attributed rule = rules.getOrDefault(group, Map.of()).get(kind);
    if (rule != null) {
      return rule.rule().evaluate(object).decidedBy(rule.by());
    }
    return GenericRules.evaluate(object);
  }

  private static Map<String, Map<String, Attributed>> attributed(
      Map<String, Map<String, KindRule>> byGroup) {
    Map<String, Map<String, Attributed>> rules = new HashMap<>();
    byGroup.forEach(
        (group, kinds) -> {
          Map<String, Attributed> ofGroup = new HashMap<>();
          kinds.forEach(
              (kind, rule) ->
                  ofGroup.put(
                      kind,
                      new Attributed(
                          rule,
                          new DecidedBy.Kstatus(
                              DecidedBy.KstatusRule.KIND,
                              group.isEmpty() ? kind : group + "/" + kind))));
          rules.put(group, Map.copyOf(ofGroup));
        });
    return Map.copyOf(rules);
  }

  /** The first Reconciling=True or Stalled=True condition, in list order, decides. */
  private static ResourceStatus standardConditions(ObjectView object) {
    for (Condition c : object.conditions()) {
      if (c.is("Reconciling", "True")) {
        return ResourceStatus.inProgress(c.reason(), c.message());
      }
      if (c.is("Stalled", "True")) {
        return ResourceStatus.failed(c.reason(), c.message());
      }
    }
    return null;
  }

  private static ResourceStatus alwaysReady(ObjectView object) {
    return ResourceStatus.current("Resource is always ready");
  }

  private static ResourceStatus disruptionBudget(ObjectView object) {
    return ResourceStatus.current("AllowedDisruptions has been computed.");
  }
}
