package dev.capstan.kustomize.chart;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kustomize.chart.ChartRenderException.Stage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A render request and its answer as the worker reads and writes them (JSON, in the build worker's
 * frames: {@code go/request.go}'s {@code Request.Render} and {@code Response.Rendered}).
 */
final class RenderWire {
  private final ObjectMapper json =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The answer: a render, or the worker's failure. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Answer(ChartRender rendered, Failure error) {}

  /** A failure as the worker says it: the stage (Go's name) and Helm's message. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Failure(String stage, String message) {}

  ObjectMapper json() {
    return json;
  }

  byte[] request(ChartRenderRequest request, Path root) {
    Map<String, Object> render = new LinkedHashMap<>();
    render.put("releaseName", request.releaseName());
    render.put("namespace", request.namespace());
    render.put("values", request.values());
    render.put("set", request.set());
    render.put("kubeVersion", request.kubeVersion());
    render.put("apiVersions", request.apiVersions());
    render.put("includeCRDs", request.includeCrds());
    render.put("skipTests", request.skipTests());
    render.put("disableHooks", request.disableHooks());
    render.put("isUpgrade", request.isUpgrade());
    render.put("skipSchemaValidation", request.skipSchemaValidation());
    render.put("postRenderers", postRenderers(request));
    render.put("postRenderStrategy", request.postRenderStrategy().wireName());
    render.put("lookups", request.lookups() != ChartLookups.NONE);
    render.put("versionTag", request.versionPin().tag());
    render.put("versionBuild", request.versionPin().build());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("root", root.toString());
    body.put("path", request.chart());
    body.put("render", render);
    try {
      return json.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new ChartRenderException(Stage.REQUEST, "the request cannot be encoded");
    }
  }

  private static List<Map<String, ChartPostRenderer>> postRenderers(ChartRenderRequest request) {
    return request.postRenderers().stream().map(r -> Map.of("kustomize", r)).toList();
  }

  ChartRender answer(byte[] bytes) {
    Answer answer;
    try {
      answer = json.readValue(bytes, Answer.class);
    } catch (IOException e) {
      // not the parser's message: it may quote the answer, and so a value
      throw new ChartRenderException(Stage.WORKER, "the chart worker's answer cannot be read");
    }
    if (answer.error() != null) {
      throw new ChartRenderException(stage(answer.error().stage()), answer.error().message());
    }
    if (answer.rendered() == null) {
      throw new ChartRenderException(Stage.WORKER, "the chart worker answered without a render");
    }
    return answer.rendered();
  }

  private static Stage stage(String name) {
    return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
      case "request" -> Stage.REQUEST;
      case "chart" -> Stage.CHART;
      case "values" -> Stage.VALUES;
      case "render" -> Stage.RENDER;
      case "version" -> Stage.VERSION;
      default -> Stage.WORKER;
    };
  }
}
