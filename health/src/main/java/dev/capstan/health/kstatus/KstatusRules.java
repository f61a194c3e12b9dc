package dev.capstan.health.kstatus;

import dev.capstan.health.status.Condition;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.GenerationCheck;
import dev.capstan.health.status.GenericRules;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kstatus computation for an object that no CEL check covers: generation, the standard
 * Reconciling/Stalled conditions, the rule of its kind, else the generic layer ({@link
 * GenericRules}: readiness conditions, condition generations, status vocabularies, else Current).
 */
public final class KstatusRules {
  private final PodRule podRule;

  public KstatusRules(Clock clock) {
    this.podRule = new PodRule(clock);
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
    KindRule rule = ruleFor(group, kind);
    if (rule != null) {
      return rule.evaluate(object).decidedBy(kindRuleOf(group, kind));
    }
    return GenericRules.evaluate(object);
  }

  /** One shared attribution per group/kind with a rule, made on first use. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, DecidedBy>> kindRules =
      new ConcurrentHashMap<>();

  private DecidedBy kindRuleOf(String group, String kind) {
    // Only kinds that have a rule get here, so the map stays as small as the list of rules.
    return kindRules
        .computeIfAbsent(group, g -> new ConcurrentHashMap<>())
        .computeIfAbsent(
            kind,
            k ->
                new DecidedBy.Kstatus(
                    DecidedBy.KstatusRule.KIND, group.isEmpty() ? kind : group + "/" + kind));
  }

  private KindRule ruleFor(String group, String kind) {
    switch (group) {
      case "":
        return coreRule(kind);
      case "apps":
        return appsRule(kind);
      case "extensions":
        return kind.equals("Ingress") ? ServiceRules::ingress : appsRule(kind);
      case "batch":
        return kind.equals("Job")
            ? JobRule::evaluate
            : kind.equals("CronJob") ? CronJobRule::evaluate : null;
      case "policy":
        return kind.equals("PodDisruptionBudget") ? KstatusRules::disruptionBudget : null;
      case "networking.k8s.io":
        return kind.equals("Ingress") ? ServiceRules::ingress : null;
      case "apiextensions.k8s.io":
        return kind.equals("CustomResourceDefinition") ? ApiRules::customResourceDefinition : null;
      case "apiregistration.k8s.io":
        return kind.equals("APIService") ? ApiRules::apiService : null;
      default:
        return null;
    }
  }

  private KindRule coreRule(String kind) {
    switch (kind) {
      case "Pod":
        return podRule;
      case "Service":
        return ServiceRules::service;
      case "PersistentVolumeClaim":
        return ServiceRules::persistentVolumeClaim;
      case "ReplicationController":
        return ReplicaSetRule::replicationController;
      case "Secret":
      case "ConfigMap":
        return KstatusRules::alwaysReady;
      default:
        return null;
    }
  }

  private static KindRule appsRule(String kind) {
    switch (kind) {
      case "Deployment":
        return DeploymentRule::evaluate;
      case "StatefulSet":
        return StatefulSetRule::evaluate;
      case "DaemonSet":
        return DaemonSetRule::evaluate;
      case "ReplicaSet":
        return ReplicaSetRule::replicaSet;
      default:
        return null;
    }
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
