package dev.capstan.kustomize.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kustomize.worker.KustomizeWorker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Answers one render's {@code lookup} questions through its {@link ChartLookups}, within bounds: at
 * most {@link #MAX_LOOKUPS} lookups a render, each answer at most {@link #MAX_ANSWER_BYTES}, none
 * asked once the render's deadline has passed (the deadline's timer stops the worker then). A
 * lookup past a bound, or one whose implementation failed, fails the template with a message that
 * names the lookup, never what was read.
 */
final class LookupRelay implements KustomizeWorker.Questions {
  static final int MAX_LOOKUPS = 100;
  static final int MAX_ANSWER_BYTES = 8 << 20;

  private final ChartLookups lookups;
  private final ObjectMapper json;
  private final long deadlineNanos;
  private int asked;

  LookupRelay(ChartLookups lookups, ObjectMapper json, long deadlineNanos) {
    this.lookups = lookups;
    this.json = json;
    this.deadlineNanos = deadlineNanos;
  }

  @Override
  public byte[] answer(byte[] question) {
    LookupQuery lookup = read(question);
    if (lookup == null) {
      return error("the chart worker asked something that is not a lookup");
    }
    if (++asked > MAX_LOOKUPS) {
      return error(
          "lookup of " + lookup.describe() + " refused: a render makes at most " + MAX_LOOKUPS);
    }
    if (System.nanoTime() - deadlineNanos > 0) {
      return error("lookup of " + lookup.describe() + " refused: the render is past its deadline");
    }
    LookupAnswer result;
    try {
      result = lookups.lookup(lookup);
    } catch (RuntimeException e) {
      result = new LookupAnswer.Refused(lookup.describe() + " cannot be read");
    }
    return answerOf(lookup, result);
  }

  private byte[] answerOf(LookupQuery lookup, LookupAnswer result) {
    if (result instanceof LookupAnswer.Found found) {
      byte[] object = found.json().getBytes(StandardCharsets.UTF_8);
      if (object.length > MAX_ANSWER_BYTES) {
        return error(
            "lookup of "
                + lookup.describe()
                + " refused: the answer is larger than "
                + (MAX_ANSWER_BYTES >> 20)
                + " MiB");
      }
      byte[] head = "{\"found\":".getBytes(StandardCharsets.US_ASCII);
      byte[] body = new byte[head.length + object.length + 1];
      System.arraycopy(head, 0, body, 0, head.length);
      System.arraycopy(object, 0, body, head.length, object.length);
      body[body.length - 1] = '}';
      return body;
    }
    if (result instanceof LookupAnswer.Refused refused) {
      return error(refused.reason());
    }
    return "{\"missing\":true}".getBytes(StandardCharsets.US_ASCII);
  }

  private LookupQuery read(byte[] question) {
    try {
      JsonNode lookup = json.readTree(question).path("question").path("lookup");
      if (!lookup.isObject()) {
        return null;
      }
      return new LookupQuery(
          lookup.path("apiVersion").asText(),
          lookup.path("kind").asText(),
          lookup.path("namespace").asText(),
          lookup.path("name").asText());
    } catch (IOException e) {
      return null;
    }
  }

  private byte[] error(String message) {
    try {
      return json.writeValueAsBytes(Map.of("error", message));
    } catch (IOException e) {
      throw new ChartRenderException(ChartRenderException.Stage.WORKER, "a lookup's answer");
    }
  }
}
