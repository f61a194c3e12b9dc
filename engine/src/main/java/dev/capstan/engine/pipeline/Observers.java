package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import java.time.Duration;
import java.util.List;

/** The observers of all extensions, told in turn. */
public final class Observers implements PipelineObserver {
  private final List<PipelineObserver> all;

  private Observers(List<PipelineObserver> all) {
    this.all = all;
  }

  public static PipelineObserver of(List<PipelineObserver> observers) {
    List<PipelineObserver> real =
        observers.stream().filter(o -> o != PipelineObserver.NONE).toList();
    return real.isEmpty()
        ? PipelineObserver.NONE
        : real.size() == 1 ? real.get(0) : new Observers(real);
  }

  @Override
  public void reconciled(String kind, NamespacedName key, Outcome.Kind outcome) {
    all.forEach(o -> o.reconciled(kind, key, outcome));
  }

  @Override
  public void objectsChanged(NamespacedName kustomization, int applied, int pruned) {
    all.forEach(o -> o.objectsChanged(kustomization, applied, pruned));
  }

  @Override
  public void chartRendered(String kind) {
    all.forEach(o -> o.chartRendered(kind));
  }

  @Override
  public void fetched(NamespacedName repository, boolean succeeded, Duration took) {
    all.forEach(o -> o.fetched(repository, succeeded, took));
  }

  @Override
  public void healthWaited(NamespacedName kustomization, boolean succeeded, Duration took) {
    all.forEach(o -> o.healthWaited(kustomization, succeeded, took));
  }

  @Override
  public void statusWritten(Kustomization before, Kustomization after) {
    all.forEach(o -> o.statusWritten(before, after));
  }

  @Override
  public void statusWritten(GitRepository before, GitRepository after) {
    all.forEach(o -> o.statusWritten(before, after));
  }

  @Override
  public void statusWritten(OCIRepository before, OCIRepository after) {
    all.forEach(o -> o.statusWritten(before, after));
  }

  @Override
  public void statusWritten(HelmChart before, HelmChart after) {
    all.forEach(o -> o.statusWritten(before, after));
  }

  @Override
  public void statusWritten(HelmRepository before, HelmRepository after) {
    all.forEach(o -> o.statusWritten(before, after));
  }

  @Override
  public void statusWritten(Bucket before, Bucket after) {
    all.forEach(o -> o.statusWritten(before, after));
  }
}
