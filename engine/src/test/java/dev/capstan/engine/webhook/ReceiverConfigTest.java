package dev.capstan.engine.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReceiverConfigTest {

  @Test
  void parsesEveryReceiverTypeWithDefaults() {
    ReceiverConfig config =
        ReceiverConfig.parse(
            """
            receivers:
            - name: podinfo
              type: github
              secretRef: {namespace: capstan-system, name: podinfo-webhook}
              resources:
              - {namespace: apps, name: podinfo}
              - namespace: apps
                matchLabels: {team: web}
            - name: lab
              type: gitlab
              events: [Push Hook]
              secretFile: /etc/capstan/webhook/lab
              resources: [{kind: GitRepository, namespace: apps, name: lab}]
            - name: ci
              type: generic
              secretRef: {namespace: ci, name: hook, key: hmac}
              resources: [{namespace: ci, name: repo}]
            """,
            "test.yaml");
    List<ReceiverSpec> r = config.receivers();
    assertEquals(3, r.size());
    assertEquals(ReceiverType.GITHUB, r.get(0).type());
    assertEquals(List.of("push"), r.get(0).events());
    assertEquals(
        new ReceiverSpec.SecretLocation(null, "capstan-system", "podinfo-webhook", "token"),
        r.get(0).secret());
    assertEquals(
        List.of(
            new ResourceSelector("apps", "podinfo", null),
            new ResourceSelector("apps", null, Map.of("team", "web"))),
        r.get(0).resources());
    assertEquals(List.of("Push Hook"), r.get(1).events());
    assertEquals("/etc/capstan/webhook/lab", r.get(1).secret().file());
    assertEquals("hmac", r.get(2).secret().key());
  }

  private static String error(String yaml) {
    return assertThrows(
            InvalidReceiverConfigException.class, () -> ReceiverConfig.parse(yaml, "hooks.yaml"))
        .getMessage();
  }

  @Test
  void mistakesAreNamedWithFileReceiverAndField() {
    assertEquals("webhook config hooks.yaml: receivers is required", error("other: 1"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0] (a): type 'bitbucket' is not one of github,"
            + " gitlab, generic",
        error("receivers: [{name: a, type: bitbucket}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0] (a): needs exactly one of secretRef or secretFile",
        error("receivers: [{name: a, type: github, resources: [{namespace: n, name: r}]}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0] (a): resources[0]: needs exactly one of name or"
            + " matchLabels",
        error("receivers: [{name: a, type: github, secretFile: /f, resources: [{namespace: n}]}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0] (a): resources[0]: kind 'Bucket' is not supported;"
            + " only GitRepository",
        error(
            "receivers: [{name: a, type: github, secretFile: /f,"
                + " resources: [{kind: Bucket, namespace: n, name: b}]}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[1]: name 'a' is used by an earlier receiver",
        error(
            "receivers: [{name: a, type: generic, secretFile: /f, resources: [{namespace: n, name:"
                + " r}]}, {name: a, type: generic, secretFile: /f, resources: [{namespace: n, name:"
                + " r}]}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0]: name 'A/b' must be lower-case letters, digits,"
            + " '.', '_' or '-' (it is a URL path)",
        error("receivers: [{name: A/b}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0]: unknown field 'secret' (known: events, name,"
            + " resources, secretFile, secretRef, type)",
        error("receivers: [{name: a, secret: x}]"));
    assertEquals(
        "webhook config hooks.yaml: receivers[0] (a): secretRef: name is required",
        error(
            "receivers: [{name: a, type: github, secretRef: {namespace: n}, resources: [{namespace:"
                + " n, name: r}]}]"));
  }
}
