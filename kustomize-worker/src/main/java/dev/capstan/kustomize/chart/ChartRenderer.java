package dev.capstan.kustomize.chart;

import dev.capstan.kustomize.chart.ChartRenderException.Stage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Helm charts rendered by Helm's own code ({@code helm.sh/helm/v4}, the version Flux's
 * helm-controller pins) in chart workers: the build worker's sandbox, limits and framing, started
 * with the first render. A render is what {@code helm template} gives for the same options ({@link
 * ChartRender#templateText()} prints it as {@code helm template} does). A chart's {@code lookup} is
 * answered by the request's {@link ChartLookups} (none: it finds nothing, as in {@code helm
 * template}); Flux's post-renderers run in Helm's render, in the worker.
 *
 * <p>Thread-safe; {@link #close()} stops its workers.
 */
public final class ChartRenderer implements AutoCloseable {
  private final ChartWorkerSettings settings;
  private final ChartWorkers workers;
  private final RenderWire wire = new RenderWire();

  public ChartRenderer(ChartWorkerSettings settings) {
    this.settings = settings;
    this.workers = new ChartWorkers(settings);
  }

  /**
   * Renders one chart.
   *
   * @throws ChartRenderException naming the stage that failed and Helm's message
   */
  public ChartRender render(ChartRenderRequest request) {
    Path root = below(request.root());
    LookupRelay relay =
        request.lookups() == ChartLookups.NONE
            ? null
            : new LookupRelay(
                request.lookups(), wire.json(), System.nanoTime() + settings.timeout().toNanos());
    byte[] answer = workers.call(wire.request(request, root), relay);
    try {
      return wire.answer(answer);
    } finally {
      settings.room().give(answer.length);
    }
  }

  /** The request's root by its real path, which must lie below the sandbox's root. */
  private Path below(Path root) {
    try {
      Path real = root.toRealPath();
      if (!real.startsWith(settings.root().toRealPath())) {
        throw new ChartRenderException(
            Stage.REQUEST, "the chart is outside the directory renders may read");
      }
      return real;
    } catch (IOException e) {
      throw new ChartRenderException(Stage.CHART, "the chart's directory cannot be read");
    }
  }

  /** How many chart workers run now (for tests). */
  long workersRunning() {
    return workers.running();
  }

  @Override
  public void close() {
    workers.close();
  }
}
