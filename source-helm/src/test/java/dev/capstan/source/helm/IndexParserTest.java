package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The index read as events: what is kept, the order, the checks and the bounds. */
class IndexParserTest {
  private final IndexParser parser = new IndexParser(IndexLimits.DEFAULTS);

  @Test
  void keepsEachVersionsDownloadFieldsHighestFirstAndLeavesOutWhatHelmLeavesOut() {
    ParsedIndex index = parse("podinfo.yaml");

    assertEquals(List.of("podinfo", "redis"), List.copyOf(index.entries().keySet()));
    List<ChartVersion> podinfo = index.entries().get("podinfo");
    assertEquals(
        List.of("6.6.0-rc.1", "6.5.4", "6.0.0"),
        podinfo.stream().map(ChartVersion::version).toList());
    ChartVersion latest = podinfo.get(1);
    assertEquals("6.5.4", latest.appVersion());
    assertEquals("2023-12-12T10:00:00.000000000Z", latest.created());
    assertEquals(
        "1d3a6e0b5cd1b5b6c2a0f2b0bb4bbbcd3fd1a1b0e0d6c0c2d7c5a3e2b1f0a9e8", latest.digest());
    assertEquals(
        List.of("https://stefanprodan.github.io/podinfo/podinfo-6.5.4.tgz"), latest.urls());
    assertEquals(
        List.of("18.0.0", "v17.1.0"),
        index.entries().get("redis").stream().map(ChartVersion::version).toList());
    assertEquals(2, index.entries().get("redis").get(0).urls().size());
    assertEquals(5, index.count());
  }

  @Test
  void theSameEntriesInAnotherOrderAndFormGiveTheSameStoredBytes(@TempDir Path dir)
      throws IOException {
    String yaml = IndexWriter.write(parse("podinfo.yaml"), dir.resolve("a.yaml"));
    String json = IndexWriter.write(parse("podinfo-reordered.json"), dir.resolve("b.yaml"));

    assertEquals(yaml, json);
    assertTrue(yaml.matches("sha256:[0-9a-f]{64}"));
    assertEquals(Files.readString(dir.resolve("a.yaml")), Files.readString(dir.resolve("b.yaml")));
  }

  @Test
  void theStoredIndexIsAnIndexHelmReadsAndReadsBackTheSame(@TempDir Path dir) throws IOException {
    ParsedIndex index = parse("podinfo.yaml");
    Path stored = dir.resolve("index.yaml");
    IndexWriter.write(index, stored);

    @SuppressWarnings("unchecked")
    Map<String, Object> loaded =
        (Map<String, Object>)
            new Load(LoadSettings.builder().build()).loadFromString(Files.readString(stored));
    assertEquals("v1", loaded.get("apiVersion"));
    assertTrue(((Map<?, ?>) loaded.get("entries")).containsKey("podinfo"));
    try (InputStream in = Files.newInputStream(stored)) {
      assertEquals(index, parser.parse(in, chart -> true));
    }
  }

  @Test
  void quotesWhatYamlWouldOtherwiseReadAsSomethingElse(@TempDir Path dir) throws IOException {
    ChartVersion odd =
        new ChartVersion(
            "odd", "1.0.0", "line\nbreak \"quoted\" \\ \u2028", "null", "~", List.of("#x: y"));
    Path stored = dir.resolve("index.yaml");
    IndexWriter.write(new ParsedIndex(Map.of("odd", List.of(odd))), stored);

    try (InputStream in = Files.newInputStream(stored)) {
      assertEquals(List.of(odd), parser.parse(in, c -> true).entries().get("odd"));
    }
  }

  @Test
  void onlyTheWantedChartIsKept() {
    try (InputStream in = resource("podinfo.yaml")) {
      assertEquals(Map.of(), parser.parse(in, "nginx"::equals).entries());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    try (InputStream in = resource("podinfo.yaml")) {
      assertEquals(
          List.of("redis"), List.copyOf(parser.parse(in, "redis"::equals).entries().keySet()));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void anIndexWithoutChartsIsAnIndex() {
    assertEquals(Map.of(), parse("empty-entries.yaml").entries());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "truncated.yaml        | index.yaml is not YAML",
        "not-yaml.html         | index.yaml",
        "wrong-api-version.yaml| index.yaml: apiVersion is not v1",
        "no-api-version.yaml   | index.yaml: no apiVersion; an index has apiVersion: v1",
        "no-entries.yaml       | index.yaml: no entries; an index lists its charts under entries",
        "alias-version.yaml    | index.yaml: entries.podinfo.version is an alias",
        "version-is-a-map.yaml | index.yaml: entries.podinfo.version is not a single value"
      })
  void aBadIndexIsRefusedWithWhatIsWrongAndWhere(String fixture, String expected) {
    SourceException refused = assertThrows(SourceException.class, () -> parse(fixture));

    assertEquals(FailureReason.INDEXATION_FAILED, refused.reason());
    assertTrue(refused.getMessage().startsWith(expected), refused.getMessage());
    assertTrue(
        refused.getMessage().matches(".*\\(line \\d+, column \\d+\\)$"), refused.getMessage());
  }

  @Test
  void aMillionEntriesAreRefusedAtTheBoundBeforeTheRestIsRead() {
    CountingStream million = new CountingStream(entries(1_000_000));

    SourceException refused =
        assertThrows(SourceException.class, () -> parser.parse(million, chart -> true));

    assertEquals(FailureReason.INDEXATION_FAILED, refused.reason());
    assertTrue(
        refused.getMessage().contains("more than 200000 chart versions (the bound of entries)"),
        refused.getMessage());
    assertTrue(million.read < 60L * 200_001, "read " + million.read + " bytes");
  }

  @Test
  void deepNestingIsRefusedAtTheBoundWhereverItIs() {
    String deep =
        "apiVersion: v1\nentries:\n  x:\n  - version: 1.0.0\n    annotations: "
            + "[".repeat(100_000)
            + "\n";

    SourceException refused =
        assertThrows(SourceException.class, () -> parser.parse(stream(deep), c -> true));

    assertTrue(
        refused.getMessage().startsWith("index.yaml: the index nests deeper than 64 levels"),
        refused.getMessage());
  }

  @Test
  void aValuePastItsBoundIsRefusedByName() {
    String index =
        "apiVersion: v1\nentries:\n  x:\n  - version: 1.0.0\n    urls: ["
            + "a".repeat(5000)
            + "]\n";

    SourceException refused =
        assertThrows(SourceException.class, () -> parser.parse(stream(index), c -> true));

    assertTrue(
        refused.getMessage().contains("entries.x.urls is longer than 4096 characters"),
        refused.getMessage());
  }

  @Test
  void anIndexPastItsSizeIsRefusedWithoutQuotingIt() {
    IndexParser small = new IndexParser(new IndexLimits(1000, 10, 8, 100, 2));
    String index = "apiVersion: v1\nentries: {}\ngenerated: \"" + "x".repeat(5000) + "\"\n";

    SourceException refused =
        assertThrows(SourceException.class, () -> small.parse(stream(index), c -> true));

    assertEquals(FailureReason.INDEXATION_FAILED, refused.reason());
    assertFalse(refused.getMessage().contains("xxxx"), refused.getMessage());
  }

  private ParsedIndex parse(String fixture) {
    try (InputStream in = resource(fixture)) {
      return parser.parse(in, chart -> true);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static InputStream resource(String fixture) {
    return IndexParserTest.class.getResourceAsStream("/indexes/" + fixture);
  }

  private static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** An index of {@code count} versions of one chart, written as it is read. */
  static InputStream entries(int count) {
    Enumeration<InputStream> parts =
        new Enumeration<>() {
          int next = -1;

          @Override
          public boolean hasMoreElements() {
            return next < count;
          }

          @Override
          public InputStream nextElement() {
            String text =
                next++ < 0
                    ? "apiVersion: v1\nentries:\n  big:\n"
                    : "  - {version: 1.0." + next + ", urls: [x.tgz]}\n";
            return stream(text);
          }
        };
    return new SequenceInputStream(parts);
  }

  private static final class CountingStream extends FilterInputStream {
    long read;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      read += Math.max(0, n);
      return n;
    }
  }
}
