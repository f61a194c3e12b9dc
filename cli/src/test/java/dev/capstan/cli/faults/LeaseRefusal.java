package dev.capstan.cli.faults;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A leader cut off from its Lease only: a ValidatingAdmissionPolicy of the API server refuses every
 * update of the Lease that keeps {@code holder} its holder (a renewal), while the holder's reads of
 * the Lease and its writes of every other object pass. A standby's take-over (which names another
 * holder) passes too. So the leader goes on reconciling unless it stops by itself once its renewals
 * fail, which is what this checks; a black hole of all its connections holds its writes as well.
 */
final class LeaseRefusal implements AutoCloseable {
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
  private static final Duration IN_EFFECT_LIMIT = Duration.ofSeconds(20);

  /** The label naming the Lease a refusal is for, so that one a killed run left can be found. */
  private static final String LEASE_LABEL = "faults.capstan.dev/refused-lease";

  private final KubernetesClient admin;
  private final String namespace;
  private final String lease;
  private final String holder;
  private final String name;

  private LeaseRefusal(KubernetesClient admin, String namespace, String lease, String holder) {
    this.admin = admin;
    this.namespace = namespace;
    this.lease = lease;
    this.holder = holder;
    this.name = "capstan-faults-refuse-" + lease + "-" + holder;
  }

  /**
   * Refuses {@code holder}'s renewals of the Lease {@code namespace/lease} from the moment this
   * returns (the API server has refused a dry run of one), until {@link #close}.
   */
  static LeaseRefusal start(KubernetesClient admin, String namespace, String lease, String holder)
      throws InterruptedException {
    for (String part : new String[] {namespace, lease, holder}) {
      if (!NAME.matcher(part).matches()) {
        throw new IllegalArgumentException("not a Kubernetes name: " + part);
      }
    }
    LeaseRefusal refusal = new LeaseRefusal(admin, namespace, lease, holder);
    sweep(admin, lease);
    try {
      admin.resource(refusal.policy()).create();
      admin.resource(refusal.binding()).create();
      refusal.awaitInEffect();
      return refusal;
    } catch (RuntimeException | InterruptedException e) {
      refusal.close();
      throw e;
    }
  }

  private ValidatingAdmissionPolicy policy() {
    String keeps =
        String.format(
            "has(oldObject.spec) && has(oldObject.spec.holderIdentity)"
                + " && oldObject.spec.holderIdentity == '%1$s'"
                + " && has(object.spec) && has(object.spec.holderIdentity)"
                + " && object.spec.holderIdentity == '%1$s'",
            holder);
    return new ValidatingAdmissionPolicyBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(LEASE_LABEL, lease)
        .endMetadata()
        .withNewSpec()
        .withFailurePolicy("Fail")
        .withNewMatchConstraints()
        .withNewNamespaceSelector()
        .addToMatchLabels("kubernetes.io/metadata.name", namespace)
        .endNamespaceSelector()
        .addNewResourceRule()
        .withApiGroups("coordination.k8s.io")
        .withApiVersions("v1")
        .withOperations("UPDATE")
        .withResources("leases")
        .withResourceNames(lease)
        .endResourceRule()
        .endMatchConstraints()
        .addNewValidation()
        .withExpression("!(" + keeps + ")")
        .withMessage(message())
        .endValidation()
        .endSpec()
        .build();
  }

  private ValidatingAdmissionPolicyBinding binding() {
    return new ValidatingAdmissionPolicyBindingBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(LEASE_LABEL, lease)
        .endMetadata()
        .withNewSpec()
        .withPolicyName(name)
        .withValidationActions("Deny")
        .endSpec()
        .build();
  }

  private String message() {
    return "the fault bench cuts " + holder + " off from its Lease";
  }

  /**
   * Removes the refusals of the Lease {@code lease} that a run killed before it healed left behind
   * (a rerun with the same seed has the same Lease): they would refuse its first leader's renewals.
   */
  static void sweep(KubernetesClient admin, String lease) {
    admin
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicyBindings()
        .withLabel(LEASE_LABEL, lease)
        .delete();
    admin
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicies()
        .withLabel(LEASE_LABEL, lease)
        .delete();
  }

  /**
   * Waits until the API server applies the policy (it loads policies asynchronously): a dry-run
   * renewal in the holder's name is refused by it, not for another reason.
   */
  private void awaitInEffect() throws InterruptedException {
    long deadline = System.nanoTime() + IN_EFFECT_LIMIT.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      try {
        admin.leases().inNamespace(namespace).withName(lease).dryRun().edit(this::probe);
        last = "renewals still pass";
      } catch (KubernetesClientException e) {
        if (String.valueOf(e.getMessage()).contains(message())) {
          return;
        }
        // another refusal (a conflict with a renewal, the API server busy): ask again
        last = "HTTP " + e.getCode();
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "the API server did not refuse "
            + holder
            + "'s renewals within "
            + IN_EFFECT_LIMIT
            + " (last: "
            + last
            + ")");
  }

  /** A renewal by the holder, for the dry run: the same holder, a new annotation. */
  private Lease probe(Lease current) {
    if (current.getSpec() == null || !holder.equals(current.getSpec().getHolderIdentity())) {
      throw new IllegalStateException(holder + " no longer holds the Lease " + lease);
    }
    return new LeaseBuilder(current)
        .editMetadata()
        .addToAnnotations("faults.capstan.dev/probe", Long.toString(System.nanoTime()))
        .endMetadata()
        .build();
  }

  /** Lets renewals pass again. */
  @Override
  public void close() {
    delete(binding());
    delete(policy());
  }

  private void delete(HasMetadata object) {
    try {
      admin.resource(object).delete();
    } catch (KubernetesClientException e) {
      // Left behind (the next refusal of this Lease sweeps it): say so, as a later run's first
      // leader may be refused until then.
      System.err.printf(
          "fault bench: could not delete %s %s: %s%n",
          object.getKind(), object.getMetadata().getName(), e.getMessage());
    }
  }
}
