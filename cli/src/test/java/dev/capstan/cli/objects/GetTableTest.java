package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GetTableTest {
  private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

  private static ResourceView view(
      String kind,
      String ns,
      String name,
      String ready,
      String healthy,
      String message,
      String revision,
      boolean suspended,
      String url) {
    var conditions = new ArrayList<Condition>();
    if (ready != null) {
      conditions.add(
          new ConditionBuilder().withType("Ready").withStatus(ready).withMessage(message).build());
    }
    if (healthy != null) {
      conditions.add(new ConditionBuilder().withType("Healthy").withStatus(healthy).build());
    }
    return new ResourceView(
        kind,
        ns,
        name,
        "2026-01-01T00:30:00Z",
        1,
        1L,
        conditions,
        revision,
        "",
        suspended,
        url,
        List.of());
  }

  @Test
  void kustomizationsShowReadyHealthyRevisionSuspendedStatusAndAge() {
    List<String> lines =
        GetCommand.table(
                CapstanKind.KUSTOMIZATION,
                List.of(
                    view(
                        "Kustomization",
                        "demo",
                        "infra",
                        "True",
                        "True",
                        "Applied revision: main@sha1:1",
                        "main@sha1:1",
                        false,
                        ""),
                    view("Kustomization", "demo", "app", null, null, null, "", true, "")),
                false,
                false,
                NOW)
            .lines();
    assertEquals(
        List.of(
            "NAME    READY   HEALTHY   REVISION      SUSPENDED   STATUS                         "
                + " AGE",
            "infra   True    True      main@sha1:1   false       Applied revision: main@sha1:1  "
                + " 30m",
            "app     -       -         -             true                                       "
                + " 30m"),
        lines);
  }

  @Test
  void allNamespacesLeadsWithTheNamespaceAndGitRepositoriesShowTheirUrl() {
    List<String> lines =
        GetCommand.table(
                CapstanKind.GIT_REPOSITORY,
                List.of(
                    view(
                        "GitRepository",
                        "demo",
                        "repo",
                        "False",
                        null,
                        "cannot reach remote",
                        "",
                        false,
                        "http://127.0.0.1:9418/demo.git")),
                true,
                false,
                NOW)
            .lines();
    assertEquals(
        List.of(
            "NAMESPACE   NAME   URL                              READY   REVISION   SUSPENDED  "
                + " STATUS                AGE",
            "demo        repo   http://127.0.0.1:9418/demo.git   False   -          false      "
                + " cannot reach remote   30m"),
        lines);
  }

  @Test
  void wideAddsEachKindsExtraColumns() {
    ResourceView app =
        new ResourceView(
            "Kustomization",
            "demo",
            "app",
            "2026-01-01T00:30:00Z",
            1,
            1L,
            List.of(),
            "",
            "",
            false,
            "",
            List.of(
                new ResourceView.Column("DEPENDS-ON", "infra,apps/v1/Deployment/data/db"),
                new ResourceView.Column("KUBECONFIG", "secret/prod"),
                new ResourceView.Column("DECRYPTION", "")));

    List<String> lines =
        GetCommand.table(CapstanKind.KUSTOMIZATION, List.of(app), false, true, NOW).lines();

    assertEquals(
        List.of(
            "NAME   READY   HEALTHY   REVISION   SUSPENDED   STATUS   AGE   DEPENDS-ON             "
                + "            KUBECONFIG    DECRYPTION",
            "app    -       -         -          false                30m  "
                + " infra,apps/v1/Deployment/data/db   secret/prod   -"),
        lines.stream().map(String::stripTrailing).toList());
  }
}
