package dev.capstan.cli.install;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.ObjectDiff;
import dev.capstan.cli.apply.HealthWait;
import dev.capstan.cli.apply.ResultPrinter;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * Applies an install with the command line's server-side apply (field manager capstan), then waits
 * until its CRDs are Established and its Deployment Available. The objects carry the labels of the
 * Kustomization that {@code capstan bootstrap git} names after the namespace, so that it adopts
 * them as its own when it applies the same manifests from Git.
 */
public final class Installer {

  private static final Set<String> AWAITED = Set.of("CustomResourceDefinition", "Deployment");

  private final ResourceManager manager;
  private final ResultPrinter printer;

  public Installer(KubernetesClient client, ExecutorService pool, ResultPrinter printer) {
    this.manager = ResourceManager.ofUser(client, pool);
    this.printer = printer;
  }

  /** The owner named by the install's labels: Kustomization NAMESPACE in NAMESPACE. */
  public static Owner owner(String namespace) {
    return new Owner(namespace, namespace);
  }

  /** Applies {@code objects}; with {@code wait}, waits for them. True when all went well. */
  public boolean install(
      List<GenericKubernetesResource> objects, String namespace, Duration timeout, boolean wait) {
    printer.line("applying " + objects.size() + " objects (namespace " + namespace + ")");
    ApplyRequest request =
        ApplyRequest.of(objects, owner(namespace))
            .withTimeout(timeout)
            .withListener(printer::progress);
    ApplyResult result = manager.apply(request);
    boolean failed = result.objects().stream().anyMatch(ObjectResult::failed);
    if (failed) {
      printer.line("install failed: an object could not be applied");
      return false;
    }
    printer.line("applied: " + result.objects().size() + " objects");
    if (!wait) {
      return true;
    }
    List<ObjectRef> awaited =
        result.inventory().refs().stream().filter(r -> AWAITED.contains(r.kind())).toList();
    printer.line("waiting for the CRDs to be Established and the Deployment Available");
    return new HealthWait(manager, timeout).await(awaited, printer);
  }

  /** What applying {@code objects} would change, by server-side dry run; true when none failed. */
  public boolean dryRun(List<GenericKubernetesResource> objects, String namespace) {
    DiffReport report = manager.diff(objects, owner(namespace), namespace);
    int changes = 0;
    for (ObjectDiff diff : report.objects()) {
      switch (diff.change()) {
        case UNCHANGED -> printer.line("unchanged  " + diff.ref());
        case CREATED -> printer.line("would create " + diff.ref());
        case CHANGED -> printer.line("would change " + diff.ref());
        case FAILED -> printer.line("would fail " + diff.ref() + ": " + diff.text());
      }
      changes += diff.changes() ? 1 : 0;
    }
    printer.line(
        "dry run: " + changes + " of " + report.objects().size() + " objects would change");
    return !report.hasFailures();
  }
}
