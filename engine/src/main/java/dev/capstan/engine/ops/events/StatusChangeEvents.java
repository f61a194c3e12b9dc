package dev.capstan.engine.ops.events;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.pipeline.PipelineObserver;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Events from what the pipelines write into status, told by the one place that writes
 * status: the pipelines stay free of event code, and no extra watch and cache of every
 * Kustomization is needed to see the changes. Only while {@code active} (the controllers run and,
 * with leader election, this replica leads).
 */
public final class StatusChangeEvents implements PipelineObserver {
  private static final Logger LOG = LoggerFactory.getLogger(StatusChangeEvents.class);

  private final BooleanSupplier active;
  private volatile EventRecorder recorder;

  public StatusChangeEvents(BooleanSupplier active) {
    this.active = active;
  }

  /** Events are recorded from now on, with this recorder. */
  public void recordWith(EventRecorder recorder) {
    this.recorder = recorder;
  }

  @Override
  public void statusWritten(Kustomization before, Kustomization after) {
    record(after, () -> StatusTransitions.kustomization(before, after));
  }

  @Override
  public void statusWritten(GitRepository before, GitRepository after) {
    record(after, () -> StatusTransitions.gitRepository(before, after));
  }

  @Override
  public void statusWritten(OCIRepository before, OCIRepository after) {
    record(after, () -> StatusTransitions.ociRepository(before, after));
  }

  @Override
  public void statusWritten(HelmChart before, HelmChart after) {
    record(after, () -> StatusTransitions.helmChart(before, after));
  }

  @Override
  public void statusWritten(HelmRepository before, HelmRepository after) {
    record(after, () -> StatusTransitions.helmRepository(before, after));
  }

  @Override
  public void statusWritten(Bucket before, Bucket after) {
    record(after, () -> StatusTransitions.bucket(before, after));
  }

  private void record(HasMetadata object, Supplier<List<StatusTransitions.Notice>> notices) {
    EventRecorder events = recorder;
    if (events == null || !active.getAsBoolean()) {
      return;
    }
    try {
      for (StatusTransitions.Notice notice : notices.get()) {
        events.record(object, notice.type(), notice.reason(), notice.message());
      }
    } catch (RuntimeException e) {
      // Events are a courtesy: a failure to derive or record one must not fail the reconcile.
      LOG.warn(
          "could not record events for {}/{}: {}",
          object.getMetadata().getNamespace(),
          object.getMetadata().getName(),
          e.toString());
    }
  }
}
