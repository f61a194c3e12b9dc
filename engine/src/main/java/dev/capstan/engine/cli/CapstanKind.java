package dev.capstan.engine.cli;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.source.Redaction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A kind of Capstan object the commands act on, with the names users may type for it and how to
 * read it as a {@link ResourceView}.
 */
record CapstanKind<T extends HasMetadata>(
    String kind, String group, String plural, List<String> aliases, Class<T> type,
    Function<T, ResourceView> viewer) {

  static final CapstanKind<Kustomization> KUSTOMIZATION = new CapstanKind<>(
      "Kustomization", Kustomization.GROUP, "kustomizations",
      List.of("ks", "kustomization", "kustomizations"), Kustomization.class, CapstanKind::ofKustomization);

  static final CapstanKind<GitRepository> GIT_REPOSITORY = new CapstanKind<>(
      "GitRepository", GitRepository.GROUP, "gitrepositories",
      List.of("gitrepo", "gitrepos", "gitrepository", "gitrepositories"), GitRepository.class,
      CapstanKind::ofGitRepository);

  static final List<CapstanKind<?>> ALL = List.of(KUSTOMIZATION, GIT_REPOSITORY);

  /** The kind a user typed, case-insensitively. */
  static CapstanKind<?> parse(String typed) {
    String name = typed.toLowerCase(Locale.ROOT);
    for (CapstanKind<?> kind : ALL) {
      if (kind.aliases().contains(name) || name.equals(kind.plural() + "." + kind.group())) {
        return kind;
      }
    }
    throw new CliException("unknown kind '" + typed + "': expected ks (kustomizations) or gitrepo"
        + " (gitrepositories)", CliException.BAD_INPUT);
  }

  ResourceView view(T object) {
    return viewer.apply(object);
  }

  /** The name of the CRD that serves this kind. */
  String crdName() {
    return plural + "." + group;
  }

  private static ResourceView ofKustomization(Kustomization ks) {
    KustomizationStatus status = ks.getStatus();
    ObjectMeta meta = ks.getMetadata();
    return new ResourceView("Kustomization", meta.getNamespace(), meta.getName(),
        meta.getCreationTimestamp(), generation(meta),
        status == null ? null : status.observedGeneration(),
        status == null ? null : status.conditions(),
        status == null ? null : status.lastAppliedRevision(),
        status == null ? null : status.lastHandledReconcileAt(),
        ks.getSpec() != null && ks.getSpec().suspended(), "");
  }

  private static ResourceView ofGitRepository(GitRepository repo) {
    GitRepositoryStatus status = repo.getStatus();
    ObjectMeta meta = repo.getMetadata();
    return new ResourceView("GitRepository", meta.getNamespace(), meta.getName(),
        meta.getCreationTimestamp(), generation(meta),
        status == null ? null : status.observedGeneration(),
        status == null ? null : status.conditions(),
        status == null || status.artifact() == null ? null : status.artifact().revision(),
        status == null ? null : status.lastHandledReconcileAt(),
        repo.getSpec() != null && repo.getSpec().suspended(),
        // spec.url is the tenant's text: it may carry a password, in any form.
        repo.getSpec() == null ? "" : Redaction.scrubUrl(repo.getSpec().url()));
  }

  private static long generation(ObjectMeta meta) {
    return meta.getGeneration() == null ? 0 : meta.getGeneration();
  }
}
