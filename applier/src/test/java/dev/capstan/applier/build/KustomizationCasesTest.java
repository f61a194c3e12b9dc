package dev.capstan.applier.build;

import static dev.capstan.applier.build.BuildFixtures.assertSameObjects;
import static dev.capstan.applier.build.BuildFixtures.assertSameText;
import static dev.capstan.applier.build.BuildFixtures.buildYaml;
import static dev.capstan.applier.build.BuildFixtures.caseRoot;
import static dev.capstan.applier.build.BuildFixtures.expected;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each case is an artifact root under {@code build/cases} and the output {@code kubectl kustomize}
 * gives for it under {@code build/expected} (recorded once; {@code KubectlKustomizeIT} re-checks
 * against a live kubectl).
 */
class KustomizationCasesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "overlay, prod",
    "generators, .",
    "components, app",
    "patches, .",
    "rbac, .",
    "plain, apps",
  })
  void buildsLikeKubectlKustomize(String name, String path) {
    String actual = buildYaml(caseRoot(name), path, BuildOptions.none());
    assertSameObjects(expected(name), actual);
    assertSameText(expected(name), actual);
  }
}
