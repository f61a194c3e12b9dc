package dev.capstan.engine.source;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.source.GitRepository;
import dev.capstan.source.core.FailureReason;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** spec.include chains: cycles back to the GitRepository and chains too deep are InvalidSpec. */
class IncludeChainsTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static Function<String, List<String>> fixture(String name) {
    try (InputStream in = IncludeChainsTest.class.getResourceAsStream("/includes/" + name)) {
      List<GitRepository> repos = YAML.readValue(in, new TypeReference<List<GitRepository>>() {});
      Map<String, List<String>> includes = new HashMap<>();
      repos.forEach(
          r ->
              includes.put(
                  r.getMetadata().getName(),
                  r.getSpec().includes().stream().map(i -> i.repository().name()).toList()));
      return includes::get;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** r0 includes r1, ..., r(n-1) includes rn. */
  private static Function<String, List<String>> chain(int n) {
    return name -> {
      int i = Integer.parseInt(name.substring(1));
      return i < n ? List.of("r" + (i + 1)) : List.of();
    };
  }

  private static SourceInputs.Unavailable refused(
      String self, Function<String, List<String>> graph) {
    return assertThrows(
        SourceInputs.Unavailable.class, () -> IncludeChains.refuseCyclesAndDeepChains(self, graph));
  }

  @Test
  void aCycleBackToTheGitRepositoryIsInvalidSpec() {
    SourceInputs.Unavailable e = refused("app", fixture("cycle.yaml"));
    assertEquals(FailureReason.INVALID_SPEC, e.reason());
    assertEquals("spec.include makes a cycle: app -> lib -> common -> app", e.getMessage());
  }

  @Test
  void includingItselfIsACycle() {
    SourceInputs.Unavailable e = refused("app", name -> List.of("app"));
    assertEquals("spec.include makes a cycle: app -> app", e.getMessage());
  }

  @Test
  void aCycleAmongTheIncludedIsNotThisGitRepositorysCycle() {
    assertDoesNotThrow(
        () -> IncludeChains.refuseCyclesAndDeepChains("app", fixture("cycle-among-others.yaml")));
    assertEquals(
        "spec.include makes a cycle: lib -> common -> lib",
        refused("lib", fixture("cycle-among-others.yaml")).getMessage());
  }

  @Test
  void chainsUpToTheLimitAreAllowedOneDeeperIsInvalidSpec() {
    assertDoesNotThrow(
        () -> IncludeChains.refuseCyclesAndDeepChains("r0", chain(IncludeChains.MAX_DEPTH)));
    SourceInputs.Unavailable e = refused("r0", chain(IncludeChains.MAX_DEPTH + 1));
    assertEquals(FailureReason.INVALID_SPEC, e.reason());
    assertEquals(
        "spec.include nests more than 10 GitRepositories deep: r0 -> r1 -> r2 -> r3 -> r4 "
            + "-> r5 -> r6 -> r7 -> r8 -> r9 -> r10 -> r11",
        e.getMessage());
  }

  @Test
  void missingGitRepositoriesEndTheirChain() {
    assertDoesNotThrow(
        () ->
            IncludeChains.refuseCyclesAndDeepChains(
                "app", name -> name.equals("app") ? List.of("gone") : null));
  }

  @Test
  void manyChainsThroughTheSameGitRepositoriesAreWalkedOnceEach() {
    // Each of l0..l9 includes all ten of the next level: 10^10 chains, 100 GitRepositories.
    AtomicInteger lookups = new AtomicInteger();
    Function<String, List<String>> layers =
        name -> {
          lookups.incrementAndGet();
          int level =
              name.equals("app") ? -1 : Integer.parseInt(name.substring(1, name.indexOf('-')));
          return level >= 9
              ? List.of()
              : IntStream.range(0, 10).mapToObj(i -> "l" + (level + 1) + "-" + i).toList();
        };
    assertDoesNotThrow(() -> IncludeChains.refuseCyclesAndDeepChains("app", layers));
    assertEquals(101, lookups.get(), "each GitRepository is read once");
  }
}
