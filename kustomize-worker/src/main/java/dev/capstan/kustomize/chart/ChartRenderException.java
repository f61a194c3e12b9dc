package dev.capstan.kustomize.chart;

import java.util.Locale;

/**
 * A chart that was not rendered: the stage that failed, and its message (Helm's, for {@link
 * Stage#CHART}, {@link Stage#VALUES} and {@link Stage#RENDER}: a template error names the
 * template's file and line, a schema failure the value's path). No message quotes a value: the
 * worker hides every string of the values in Helm's messages, as values may come from a Secret.
 */
public final class ChartRenderException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Where the render failed. */
  public enum Stage {
    /** The request was refused (a chart outside the sandbox's root, a missing release name). */
    REQUEST,
    /** The chart could not be loaded: not found, a refused archive, a missing dependency. */
    CHART,
    /** A values document is not YAML, or a {@code --set} expression cannot be parsed. */
    VALUES,
    /** Helm's render failed: a template, or the values against {@code values.schema.json}. */
    RENDER,
    /** The chart's version is not that of the tag its OCI artifact was pulled by. */
    VERSION,
    /** The render went past its time, memory or answer size, and its worker was stopped. */
    LIMIT,
    /** The machine cannot confine the chart worker, and the sandbox requires it. */
    SANDBOX,
    /** The chart worker could not be had or started, or ended unexpectedly. */
    WORKER
  }

  private final Stage stage;

  public ChartRenderException(Stage stage, String message) {
    super(message, null, false, false);
    this.stage = stage;
  }

  public Stage stage() {
    return stage;
  }

  /** The stage (lower case) and the message, as the command line prints it. */
  public String describe() {
    return stage.name().toLowerCase(Locale.ROOT) + ": " + getMessage();
  }
}
