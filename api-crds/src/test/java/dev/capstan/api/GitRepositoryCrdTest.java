package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the generated GitRepository CRD (the one published to deploy/crds) admits. */
class GitRepositoryCrdTest {

  private static JSONSchemaProps spec() throws IOException {
    try (InputStream in =
        GitRepositoryCrdTest.class.getResourceAsStream(
            "/META-INF/fabric8/gitrepositories.source.capstan.dev-v1.yml")) {
      CustomResourceDefinition crd =
          new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      return crd.getSpec()
          .getVersions()
          .get(0)
          .getSchema()
          .getOpenAPIV3Schema()
          .getProperties()
          .get("spec");
    }
  }

  private static Pattern urlPattern() throws IOException {
    String pattern = spec().getProperties().get("url").getPattern();
    assertEquals("^(http|https|ssh)://.*$", pattern, "Flux's pattern");
    return Pattern.compile(pattern);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://github.com/org/repo",
        "http://git.internal:8080/r.git",
        "ssh://git@github.com/org/repo.git"
      })
  void urlAdmitsRemoteSchemes(String url) throws IOException {
    assertTrue(urlPattern().matcher(url).matches(), url);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "file:///var/lib/capstan/sources/other/git",
        "/var/lib/capstan/sources/other/git",
        "git://git.internal/r.git",
        "git@github.com:org/repo.git",
        "HTTPS://github.com/org/repo",
        "https://host/r\n.git",
        ""
      })
  void urlRefusesLocalAndOtherForms(String url) throws IOException {
    assertFalse(urlPattern().matcher(url).matches(), url);
  }
}
