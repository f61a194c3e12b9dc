package dev.capstan.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.applier.ClusterErrors;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The Kustomizations, GitRepositories and OCIRepositories of the cluster as the user sees them: one
 * informer (one list, then one watch) per kind for the whole process, shared by every page and
 * browser; or, for a user who may list only some namespaces, one per kind and namespace named. A
 * kind or namespace the user cannot list, or a cluster that cannot be reached, is kept as a problem
 * line; the informers keep retrying, so the view fills in once access is granted.
 */
final class Catalog implements AutoCloseable, DriftTargets.Lookup {
  private final List<Watched<Kustomization>> kustomizations = new ArrayList<>();
  private final List<Watched<GitRepository>> gitRepositories = new ArrayList<>();
  private final List<Watched<OCIRepository>> ociRepositories = new ArrayList<>();

  /**
   * @param namespaces the namespaces to watch; empty for all of them
   */
  Catalog(KubernetesClient client, List<String> namespaces, Consumer<String> onChange) {
    URL server = client.getMasterUrl();
    if (namespaces.isEmpty()) {
      kustomizations.add(
          new Watched<>(
              "Kustomizations",
              "",
              client.resources(Kustomization.class).inAnyNamespace().runnableInformer(0),
              onChange,
              server));
      gitRepositories.add(
          new Watched<>(
              "GitRepositories",
              "",
              client.resources(GitRepository.class).inAnyNamespace().runnableInformer(0),
              onChange,
              server));
      ociRepositories.add(
          new Watched<>(
              "OCIRepositories",
              "",
              client.resources(OCIRepository.class).inAnyNamespace().runnableInformer(0),
              onChange,
              server));
    }
    for (String ns : namespaces) {
      kustomizations.add(
          new Watched<>(
              "Kustomizations",
              ns,
              client.resources(Kustomization.class).inNamespace(ns).runnableInformer(0),
              onChange,
              server));
      gitRepositories.add(
          new Watched<>(
              "GitRepositories",
              ns,
              client.resources(GitRepository.class).inNamespace(ns).runnableInformer(0),
              onChange,
              server));
      ociRepositories.add(
          new Watched<>(
              "OCIRepositories",
              ns,
              client.resources(OCIRepository.class).inNamespace(ns).runnableInformer(0),
              onChange,
              server));
    }
  }

  void start() {
    kustomizations.forEach(Watched::start);
    gitRepositories.forEach(Watched::start);
    ociRepositories.forEach(Watched::start);
  }

  Overview overview() {
    return Overview.of(kustomizations(), gitRepositories(), ociRepositories(), problems());
  }

  List<Kustomization> kustomizations() {
    return items(kustomizations);
  }

  List<GitRepository> gitRepositories() {
    return items(gitRepositories);
  }

  List<OCIRepository> ociRepositories() {
    return items(ociRepositories);
  }

  @Override
  public Optional<Kustomization> kustomization(String namespace, String name) {
    return find(kustomizations, namespace + "/" + name);
  }

  @Override
  public Optional<GitRepository> gitRepository(String namespace, String name) {
    return find(gitRepositories, namespace + "/" + name);
  }

  Optional<OCIRepository> ociRepository(String namespace, String name) {
    return find(ociRepositories, namespace + "/" + name);
  }

  List<Overview.Problem> problems() {
    List<Overview.Problem> problems = new ArrayList<>();
    kustomizations.forEach(w -> w.problem().ifPresent(problems::add));
    gitRepositories.forEach(w -> w.problem().ifPresent(problems::add));
    ociRepositories.forEach(w -> w.problem().ifPresent(problems::add));
    return problems;
  }

  private static <T extends HasMetadata> List<T> items(List<Watched<T>> watched) {
    List<T> all = new ArrayList<>();
    watched.forEach(w -> all.addAll(w.items()));
    return all;
  }

  private static <T extends HasMetadata> Optional<T> find(List<Watched<T>> watched, String key) {
    return watched.stream()
        .map(w -> w.informer.getStore().getByKey(key))
        .filter(o -> o != null)
        .findFirst();
  }

  @Override
  public void close() {
    kustomizations.forEach(w -> w.informer.stop());
    gitRepositories.forEach(w -> w.informer.stop());
    ociRepositories.forEach(w -> w.informer.stop());
  }

  /**
   * One kind's informer (for all namespaces or one) and the last reason it could not list or watch.
   */
  private static final class Watched<T extends HasMetadata> {
    private final String kinds;
    private final String where;
    private final SharedIndexInformer<T> informer;
    private final AtomicReference<String> lastError = new AtomicReference<>();

    Watched(
        String kinds,
        String namespace,
        SharedIndexInformer<T> informer,
        Consumer<String> onChange,
        URL server) {
      this.kinds = kinds;
      this.where = namespace.isEmpty() ? "" : " in namespace " + namespace;
      this.informer = informer;
      informer.addEventHandler(
          new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
              onChange.accept(key(obj));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
              onChange.accept(key(newObj));
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
              onChange.accept(key(obj));
            }
          });
      informer.exceptionHandler(
          (started, error) -> {
            lastError.set(describe(error, server));
            onChange.accept(EventStream.EVERYTHING);
            return true;
          });
    }

    void start() {
      informer.start();
    }

    /** {@code Kind/namespace/name}, as the graph and the pages name objects. */
    private static String key(HasMetadata object) {
      return ObjectRef.of(object).display();
    }

    List<T> items() {
      return informer.getStore().list();
    }

    Optional<Overview.Problem> problem() {
      String error = lastError.get();
      if (informer.hasSynced() && informer.isWatching()) {
        return Optional.empty();
      }
      String hint =
          where.isEmpty() && error != null && error.contains("forbidden")
              ? " (a user who may list only some namespaces: capstan ui -n NAMESPACE)"
              : "";
      return Optional.of(
          new Overview.Problem(
              kinds,
              error == null
                  ? "cannot list " + kinds + where + " yet: waiting for the API server"
                  : "cannot list " + kinds + where + ": " + error + hint));
    }

    private static String describe(Throwable error, URL server) {
      for (Throwable t = error; t != null; t = t.getCause()) {
        if (t instanceof KubernetesClientException k) {
          return ClusterErrors.describe(k, server);
        }
      }
      return error.getClass().getSimpleName()
          + (error.getMessage() == null ? "" : ": " + error.getMessage());
    }
  }
}
