import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.chart.ChartRenderer;
import dev.capstan.kustomize.chart.ChartWorkerSettings;
import dev.capstan.kustomize.worker.AnswerRoom;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * A warm render in the engine: ChartRenderer.render of one chart, as the engine renders it (its
 * chart worker already running, the JVM past its warm-up): prints the median of RUNS renders in
 * milliseconds, each from the request to the text {@code helm template} prints. Writes that text to
 * OUT, for the caller to compare with helm template's output.
 *
 * <p>Usage: java -cp CLASSPATH WarmRenderBench.java CHART_DIR RUNS OUT (CLASSPATH: the
 * kustomize-worker module's classes, with its chart worker among its resources, and Jackson).
 */
public final class WarmRenderBench {
  private static final int WARM_UP = 20;

  public static void main(String[] args) throws Exception {
    Path chart = Path.of(args[0]).toRealPath();
    int runs = Integer.parseInt(args[1]);
    Path cache = Files.createTempDirectory("capstan-warm-render");
    ChartWorkerSettings settings =
        new ChartWorkerSettings(
            chart.getParent(),
            cache.resolve("worker"),
            true,
            true,
            1L << 30,
            Duration.ofSeconds(60),
            256L << 20,
            1,
            Duration.ZERO,
            AnswerRoom.UNBOUNDED);
    ChartRenderRequest request =
        ChartRenderRequest.of(chart.getParent(), chart.getFileName().toString(), "bench", "bench")
            .withNamespace("bench");
    try (ChartRenderer renderer = new ChartRenderer(settings)) {
      ChartRender first = renderer.render(request);
      Files.writeString(Path.of(args[2]), first.templateText(), StandardCharsets.UTF_8);
      for (int i = 0; i < WARM_UP; i++) {
        renderer.render(request).templateText();
      }
      long[] times = new long[runs];
      for (int i = 0; i < runs; i++) {
        long start = System.nanoTime();
        renderer.render(request).templateText();
        times[i] = System.nanoTime() - start;
      }
      Arrays.sort(times);
      System.out.printf("%.1f%n", times[(runs - 1) / 2] / 1e6);
    }
  }
}
