package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.capstan.api.helm.HelmRelease;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReleaseTargetTest {
  private final ReleaseFakes fakes = new ReleaseFakes();

  @Test
  void nothingRecordedIsNoChange() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    ReleaseFakes.updateSpec(release, "{\"releaseName\":\"web\"}");

    assertEquals(Optional.empty(), ReleaseTarget.changed(release, chart("podinfo")));
    assertSame(release, ReleaseTarget.recorded(release));
  }

  @Test
  void eachPartOfTheTargetIsNamedWhenItChanged() throws IOException {
    HelmRelease release = installed();
    assertEquals(Optional.empty(), ReleaseTarget.changed(release, chart("podinfo")));
    assertEquals(Optional.empty(), ReleaseTarget.changed(release, chart(null)), "name unknown");
    assertSame(release, ReleaseTarget.recorded(release));

    assertEquals(Optional.of("chart name changed"), ReleaseTarget.changed(release, chart("other")));
    List<String> reasons =
        List.of(
                "{\"releaseName\":\"web\"}",
                "{\"releaseName\":\"podinfo\",\"targetNamespace\":\"web\"}",
                "{\"storageNamespace\":\"records\",\"releaseName\":\"podinfo\","
                    + "\"targetNamespace\":\"web\"}")
            .stream()
            .map(
                json -> {
                  HelmRelease moved = installed();
                  ReleaseFakes.updateSpec(moved, json);
                  return ReleaseTarget.changed(moved, chart("podinfo")).orElseThrow();
                })
            .toList();
    assertEquals(
        List.of("release name changed", "release namespace changed", "storage namespace changed"),
        reasons);
  }

  @Test
  void theRecordedReleaseIsTheOneTheStatusNames() throws IOException {
    HelmRelease release = installed();
    ReleaseFakes.updateSpec(
        release,
        "{\"releaseName\":\"web\",\"targetNamespace\":\"web\",\"storageNamespace\":\"s\"}");

    HelmRelease recorded = ReleaseTarget.recorded(release);

    assertEquals(
        List.of("podinfo", "apps", "apps"),
        List.of(recorded.releaseName(), recorded.releaseNamespace(), recorded.storageNamespace()));
    assertEquals("web", release.releaseName(), "the HelmRelease itself is left as it is");
    assertSame(release.getStatus(), recorded.getStatus());
    assertSame(release.getMetadata(), recorded.getMetadata());
  }

  private HelmRelease installed() {
    HelmRelease release = ReleaseFakes.release();
    fakes.pipeline().reconcile(release);
    return release;
  }

  private static ChartArtifact chart(String name) {
    return new ChartArtifact(
        false, "HelmChart 'apps/podinfo'", "6.5.0", "sha256:x", Path.of("/a"), "c.tgz", name);
  }
}
