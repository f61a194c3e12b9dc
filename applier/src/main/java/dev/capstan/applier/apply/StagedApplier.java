package dev.capstan.applier.apply;

import dev.capstan.applier.apply.RevisionValidator.Validated;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Applies one revision: validate everything, dry-run every write, then apply stage by stage. An
 * object carrying fields of a manager the request's policy overrides is written even when it is
 * otherwise unchanged: those fields are taken over first, so that the apply removes what Capstan
 * does not apply. Nothing the dry-run can reject is ever half-applied: a revision whose dry-run
 * fails writes nothing (or, for objects that depend on new CRDs or Namespaces, only those
 * definitions).
 */
public final class StagedApplier {

  private final ClusterAccess cluster;

  public StagedApplier(ClusterAccess cluster) {
    this.cluster = cluster;
  }

  public ApplyResult apply(ApplyRequest request) {
    ResourceCatalog catalog = cluster.catalog();
    Validated validated =
        RevisionValidator.validate(
            request.objects(),
            catalog::find,
            request.owner(),
            request.defaultNamespace(),
            request.ignore());
    InventorySet inventory =
        InventorySet.of(validated.desired().stream().map(DesiredObject::ref).toList());
    if (!validated.valid()) {
      return invalid(request, validated, inventory);
    }
    RunResults results = new RunResults(validated.desired(), request.listener());
    List<Plan> plans = plan(validated, request);
    Map<ObjectRef, Rejection> recreate = new HashMap<>();
    if (dryRunFails(select(plans, p -> !p.unchanged() && !p.deferred()), request, results, recreate)
        || !applyStage(Stage.DEFINITIONS, plans, request, results, recreate)
        || dryRunFails(
            select(plans, p -> !p.unchanged() && p.deferred()), request, results, recreate)
        || !applyStage(Stage.CUSTOM, plans, request, results, recreate)
        || !applyStage(Stage.CLUSTER, plans, request, results, recreate)
        || !applyStage(Stage.NAMESPACED, plans, request, results, recreate)) {
      results.skipRemaining(
          validated.desired(), "not applied: another object of the revision failed");
    }
    return new ApplyResult(results.inOrder(), inventory, results.answers());
  }

  private ApplyResult invalid(ApplyRequest request, Validated validated, InventorySet inventory) {
    List<ObjectResult> out = new ArrayList<>(validated.problems());
    Set<ObjectRef> failed =
        validated.problems().stream()
            .map(r -> r.ref().withoutVersion())
            .collect(Collectors.toSet());
    for (DesiredObject d : validated.desired()) {
      if (!failed.contains(d.ref().withoutVersion())) {
        out.add(
            new ObjectResult(
                d.ref(), Action.SKIPPED, "not applied: the revision failed validation"));
      }
    }
    out.forEach(request.listener()::onResult);
    return new ApplyResult(out, inventory);
  }

  private List<Plan> plan(Validated validated, ApplyRequest request) {
    List<DesiredObject> listable =
        validated.desired().stream()
            .filter(d -> !validated.awaitingCrd().contains(d.ref()))
            .toList();
    // An owner that applied nothing before has no objects to find: a LIST would only cost the API
    // server a consistent read and a scan of the namespace (objects it left behind that carry its
    // labels, if any, are written again like the rest).
    CompletableFuture<LiveObjects> reading =
        request.firstApply()
            ? LiveObjects.readNamespaces(cluster.client(), listable, cluster.executor())
            : LiveObjects.readOwned(
                cluster.client(), listable, request.owner(), cluster.executor());
    validated.desired().forEach(DesiredObject::digest); // while the LISTs are in flight
    LiveObjects live = Futures.joined(reading);
    Set<ObjectRef> deferred = validated.notYetDryRunnable(live);
    List<CompletableFuture<Plan>> plans = new ArrayList<>();
    for (DesiredObject d : validated.desired()) {
      plans.add(plan(d, live.get(d.ref()), deferred.contains(d.ref()), request));
    }
    return plans.stream().map(Futures::joined).toList();
  }

  /**
   * The plan of one object. Looking closer at an object drift is reported for, and resolving the
   * ignored fields of an object about to be written, need the whole live object: read for those
   * objects only, on the executor; every other plan is known at once.
   */
  private CompletableFuture<Plan> plan(
      DesiredObject d, GenericKubernetesResource current, boolean deferred, ApplyRequest request) {
    // Fields of a manager Capstan overrides are taken over with a write, changed or not.
    // A look writes nothing, not even to take fields over.
    boolean takeOver =
        request.drift().mode() != DriftPolicy.Mode.LOOK
            && current != null
            && ManagedFieldsTakeover.needed(
                current.getMetadata().getManagedFields(), request.policy());
    Stage stage = Stage.of(d.type(), request.policy().customStageKinds());
    DriftVerdict verdict =
        takeOver ? DriftVerdict.WRITE : DriftVerdict.of(current, d, request.drift());
    return switch (verdict) {
      case UNCHANGED ->
          CompletableFuture.completedFuture(
              new Plan(
                  d, current, ObjectResult.of(d.ref(), Action.UNCHANGED), deferred, stage, false));
      case LEFT_OUT ->
          CompletableFuture.completedFuture(
              new Plan(
                  d,
                  current,
                  new ObjectResult(
                      d.ref(),
                      Action.SKIPPED,
                      "not created again: missing from the cluster, and drift detection is"
                          + " disabled"),
                  deferred,
                  stage,
                  false));
      case INSPECT ->
          CompletableFuture.supplyAsync(
              () -> new Plan(d, current, inspect(d), deferred, stage, false), cluster.executor());
      case WRITE ->
          current == null || d.ignored().isEmpty()
              ? CompletableFuture.completedFuture(
                  new Plan(d, current, null, deferred, stage, takeOver))
              : CompletableFuture.supplyAsync(
                  () ->
                      new Plan(
                          IgnoredFieldsResolver.resolve(d, cluster.calls().get(d)),
                          current,
                          null,
                          deferred,
                          stage,
                          takeOver),
                  cluster.executor());
    };
  }

  /** What another writer changed in an object drift is reported for; unchanged if nothing. */
  private ObjectResult inspect(DesiredObject d) {
    GenericKubernetesResource live = cluster.calls().get(d);
    if (live == null) {
      return new ObjectResult(d.ref(), Action.DRIFTED, "deleted from the cluster");
    }
    GenericKubernetesResource applied;
    try {
      applied = cluster.calls().apply(d, true);
    } catch (RejectedException e) {
      return new ObjectResult(
          d.ref(), Action.DRIFTED, "could not be compared: " + e.rejection().reason());
    }
    List<String> fields =
        DriftedFields.between(DesiredObject.asMap(live), DesiredObject.asMap(applied), d.ignored());
    if (fields.isEmpty()) {
      return ObjectResult.of(d.ref(), Action.UNCHANGED);
    }
    return new ObjectResult(
        d.ref(),
        Action.DRIFTED,
        "changed in the cluster: "
            + String.join(", ", fields.subList(0, Math.min(5, fields.size())))
            + (fields.size() > 5 ? " and " + (fields.size() - 5) + " more" : ""),
        fields);
  }

  /** Dry-runs the writes; true when any was rejected (and recorded as failed). */
  private boolean dryRunFails(
      List<Plan> writes,
      ApplyRequest request,
      RunResults results,
      Map<ObjectRef, Rejection> recreate) {
    Map<Plan, Rejection> rejected = concurrently(writes, this::dryRun);
    rejected.forEach(
        (plan, rejection) -> {
          if (rejection.immutableField() && request.force()) {
            // On this thread, after every dry-run ended: the writes that read the map start later.
            recreate.put(plan.desired().ref(), rejection);
          } else {
            results.record(failure(plan.desired().ref(), rejection));
          }
        });
    return results.anyFailed();
  }

  private Rejection dryRun(Plan plan) {
    try {
      cluster.calls().applyUnread(plan.desired(), true);
      return null;
    } catch (RejectedException e) {
      return e.rejection();
    }
  }

  /** Applies one stage; false when any of its objects failed. */
  private boolean applyStage(
      Stage stage,
      List<Plan> plans,
      ApplyRequest request,
      RunResults results,
      Map<ObjectRef, Rejection> recreate) {
    List<Plan> inStage = select(plans, p -> p.stage() == stage);
    inStage.stream().filter(Plan::unchanged).forEach(p -> results.record(p.settled()));
    List<Plan> writes = select(inStage, p -> !p.unchanged());
    Map<Plan, ObjectResult> written =
        concurrently(writes, p -> write(p, recreate.get(p.desired().ref()), request, results));
    written.values().forEach(results::record);
    if (stage == Stage.DEFINITIONS) {
      awaitEstablished(writes, request, results);
    }
    return !results.anyFailed();
  }

  private ObjectResult write(
      Plan plan, Rejection immutable, ApplyRequest request, RunResults results) {
    DesiredObject d = plan.desired();
    try {
      if (immutable != null) {
        return recreate(d, immutable, request);
      }
      // An object Capstan does not own yet was not listed (nor any object on a first apply): it is
      // read here, when managers are overridden, so that their fields are taken over then too.
      if (plan.takeOver()
          || (plan.live() == null && !request.policy().overrideManagers().isEmpty())) {
        cluster.calls().takeOver(d, request.policy());
      }
      ServerSideApply.Answer answer = cluster.calls().applyUnread(d, false);
      results.answered(d.ref(), answer.body());
      if (answer.created()) {
        return ObjectResult.of(d.ref(), Action.CREATED);
      }
      if (plan.live() == null) {
        // it existed, but was not ours yet (or, on a first apply, was not looked for)
        return ObjectResult.of(d.ref(), Action.CONFIGURED);
      }
      String before = plan.live().getMetadata().getResourceVersion();
      boolean same = before != null && before.equals(cluster.calls().resourceVersionOf(answer));
      return ObjectResult.of(d.ref(), same ? Action.UNCHANGED : Action.CONFIGURED);
    } catch (RejectedException e) {
      if (e.rejection().immutableField() && request.force()) {
        return recreateOrFail(d, e.rejection(), request);
      }
      return failure(d.ref(), e.rejection());
    }
  }

  private ObjectResult recreateOrFail(DesiredObject d, Rejection immutable, ApplyRequest request) {
    try {
      return recreate(d, immutable, request);
    } catch (RejectedException e) {
      return failure(d.ref(), e.rejection());
    }
  }

  private ObjectResult recreate(DesiredObject d, Rejection immutable, ApplyRequest request)
      throws RejectedException {
    cluster.calls().delete(d);
    if (!cluster.polling().until(() -> cluster.calls().get(d) == null, request.timeout())) {
      return new ObjectResult(
          d.ref(),
          Action.FAILED,
          "deleted to recreate it, but it was still there after " + request.timeout());
    }
    cluster.calls().apply(d, false);
    return new ObjectResult(d.ref(), Action.CREATED, "recreated: " + immutable.reason());
  }

  private void awaitEstablished(List<Plan> writes, ApplyRequest request, RunResults results) {
    List<Plan> crds = select(writes, p -> p.desired().isCrd());
    Map<Plan, ObjectResult> notReady =
        concurrently(
            crds,
            p ->
                cluster
                        .polling()
                        .until(() -> established(p.desired().ref().name()), request.timeout())
                    ? null
                    : new ObjectResult(
                        p.desired().ref(),
                        Action.FAILED,
                        "CustomResourceDefinition not Established within " + request.timeout()));
    notReady.values().forEach(results::record);
  }

  private boolean established(String crdName) {
    CustomResourceDefinition crd =
        cluster.client().apiextensions().v1().customResourceDefinitions().withName(crdName).get();
    return crd != null
        && crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** Runs {@code call} on every plan with the executor; keeps the non-null answers. */
  private <R> Map<Plan, R> concurrently(List<Plan> plans, Function<Plan, R> call) {
    // by identity: a plan's own hash would walk the whole live object
    Map<Plan, CompletableFuture<R>> futures = new IdentityHashMap<>();
    plans.forEach(
        p ->
            futures.put(p, CompletableFuture.supplyAsync(() -> call.apply(p), cluster.executor())));
    Map<Plan, R> answers = new IdentityHashMap<>();
    futures.forEach(
        (plan, future) -> {
          R answer = Futures.joined(future);
          if (answer != null) {
            answers.put(plan, answer);
          }
        });
    return answers;
  }

  private static List<Plan> select(List<Plan> plans, Predicate<Plan> filter) {
    return plans.stream().filter(filter).toList();
  }

  private static ObjectResult failure(ObjectRef ref, Rejection rejection) {
    String reason =
        rejection.immutableField()
            ? rejection.reason()
                + " (an immutable field changed; apply with force to delete and recreate it)"
            : rejection.reason();
    return new ObjectResult(ref, Action.FAILED, reason);
  }
}
