package dev.capstan.engine.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.applier.cli.ClusterErrors;
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

/**
 * The Kustomizations and GitRepositories of the cluster as the user sees them: one informer (one
 * list, then one watch) per kind for the whole process, shared by every page and browser. A kind
 * the user cannot list, or a cluster that cannot be reached, is kept as a problem line; the
 * informer keeps retrying, so the view fills in once access is granted.
 */
final class Catalog implements AutoCloseable {
  private final Watched<Kustomization> kustomizations;
  private final Watched<GitRepository> gitRepositories;

  Catalog(KubernetesClient client, Runnable onChange) {
    URL server = client.getMasterUrl();
    this.kustomizations = new Watched<>("Kustomizations", client.resources(Kustomization.class)
        .inAnyNamespace().runnableInformer(0), onChange, server);
    this.gitRepositories = new Watched<>("GitRepositories", client.resources(GitRepository.class)
        .inAnyNamespace().runnableInformer(0), onChange, server);
  }

  void start() {
    kustomizations.start();
    gitRepositories.start();
  }

  Overview overview() {
    List<Overview.Problem> problems = new ArrayList<>();
    kustomizations.problem().ifPresent(problems::add);
    gitRepositories.problem().ifPresent(problems::add);
    return Overview.of(kustomizations.items(), gitRepositories.items(), problems);
  }

  List<Kustomization> kustomizations() {
    return kustomizations.items();
  }

  List<GitRepository> gitRepositories() {
    return gitRepositories.items();
  }

  Optional<Kustomization> kustomization(String namespace, String name) {
    return Optional.ofNullable(kustomizations.informer.getStore().getByKey(namespace + "/" + name));
  }

  Optional<GitRepository> gitRepository(String namespace, String name) {
    return Optional.ofNullable(gitRepositories.informer.getStore().getByKey(namespace + "/" + name));
  }

  List<Overview.Problem> problems() {
    List<Overview.Problem> problems = new ArrayList<>();
    kustomizations.problem().ifPresent(problems::add);
    gitRepositories.problem().ifPresent(problems::add);
    return problems;
  }

  @Override
  public void close() {
    kustomizations.informer.stop();
    gitRepositories.informer.stop();
  }

  /** One kind's informer and the last reason it could not list or watch. */
  private static final class Watched<T extends HasMetadata> {
    private final String kinds;
    private final SharedIndexInformer<T> informer;
    private final AtomicReference<String> lastError = new AtomicReference<>();

    Watched(String kinds, SharedIndexInformer<T> informer, Runnable onChange, URL server) {
      this.kinds = kinds;
      this.informer = informer;
      informer.addEventHandler(new ResourceEventHandler<T>() {
        @Override
        public void onAdd(T obj) {
          onChange.run();
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
          onChange.run();
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
          onChange.run();
        }
      });
      informer.exceptionHandler((started, error) -> {
        lastError.set(describe(error, server));
        onChange.run();
        return true;
      });
    }

    void start() {
      informer.start();
    }

    List<T> items() {
      return informer.getStore().list();
    }

    Optional<Overview.Problem> problem() {
      String error = lastError.get();
      if (informer.hasSynced() && informer.isWatching()) {
        return Optional.empty();
      }
      return Optional.of(new Overview.Problem(kinds, error == null
          ? "cannot list " + kinds + " yet: waiting for the API server" : "cannot list " + kinds + ": " + error));
    }

    private static String describe(Throwable error, URL server) {
      for (Throwable t = error; t != null; t = t.getCause()) {
        if (t instanceof KubernetesClientException k) {
          return ClusterErrors.describe(k, server);
        }
      }
      return error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
    }
  }
}
