package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ApiVersionTest {

  @Test
  void aGroupAndAVersionAreSplitAtTheSlash() {
    assertEquals(new ApiVersion("apps", "v1"), ApiVersion.of("apps/v1"));
    assertEquals(
        new ApiVersion("cert-manager.io", "v1alpha2"), ApiVersion.of("cert-manager.io/v1alpha2"));
  }

  @Test
  void withoutASlashItIsTheCoreGroup() {
    assertEquals(new ApiVersion("", "v1"), ApiVersion.of("v1"));
    assertEquals(new ApiVersion("", ""), ApiVersion.of(""));
  }

  @Test
  void onlyTheFirstSlashSeparates() {
    assertEquals(new ApiVersion("a", "b/c"), ApiVersion.of("a/b/c"));
    assertEquals(new ApiVersion("", "v1"), ApiVersion.of("/v1"));
    assertEquals(new ApiVersion("apps", ""), ApiVersion.of("apps/"));
  }

  @Test
  void writtenBackItIsTheApiVersion() {
    for (String text : new String[] {"v1", "apps/v1", "a/b/c"}) {
      assertEquals(text, ApiVersion.of(text).toString());
    }
  }

  @Test
  void refsAndGroupKindsParseTheSameWay() {
    ObjectRef core = ObjectRef.of("v1", "ConfigMap", "web", "settings");
    assertEquals(new ObjectRef("", "v1", "ConfigMap", "web", "settings"), core);
    assertEquals("v1", core.apiVersion());
    ObjectRef apps = ObjectRef.of("apps/v1", "Deployment", "web", "api");
    assertEquals(new ObjectRef("apps", "v1", "Deployment", "web", "api"), apps);
    assertEquals("apps/v1", apps.apiVersion());
    assertEquals(
        new ObjectRef("", "", "Namespace", "", "x"), ObjectRef.of(null, "Namespace", null, "x"));
    assertEquals(new GroupKind("", "Secret"), GroupKind.of("v1", "Secret"));
    assertEquals(new GroupKind("apps", "Deployment"), GroupKind.of("apps/v1", "Deployment"));
  }
}
