package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code capstan apply} and {@code capstan diff} as a user runs them, in-process. */
@ExtendWith(KubernetesCluster.class)
class CommandsIT {

  private static final String PASSWORD_V1 = "first-Pa55word";
  private static final String PASSWORD_V2 = "second-Pa55word";

  private final KubernetesClient admin;
  private final String ns;
  private final Path kubeconfig;

  @TempDir Path dir;

  CommandsIT(KubernetesClient admin, TestNamespace namespace, ClusterAccess access) {
    this.admin = admin;
    this.ns = namespace.name();
    this.kubeconfig = access.kubeconfig();
  }

  private record Run(int exit, String out, String err) {}

  private Run run(Object command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli =
        new CommandLine(command).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kubeconfig", kubeconfig.toString()));
    int exit = cli.execute(all.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  private void write(String config, String password) throws Exception {
    Files.writeString(
        dir.resolve("app.yaml"),
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cli-config, namespace: %1$s}
        data: {level: "%2$s"}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: cli-secret, namespace: %1$s}
        stringData: {password: "%3$s", user: admin}
        """
            .formatted(ns, config, password));
  }

  @Test
  void applyPrintsProgressAndSummaryThenDiffShowsMaskedChanges() throws Exception {
    String inventory =
        "cli-inv-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    write("info", PASSWORD_V1);
    Run diffBefore = run(new DiffCommand(), "-f", dir.toString(), "--inventory", inventory);
    assertEquals(1, diffBefore.exit(), diffBefore.err());
    assertTrue(
        diffBefore.out().contains("+ Secret/" + ns + "/cli-secret (would be created)"),
        diffBefore.out());
    assertFalse(diffBefore.out().contains(PASSWORD_V1), diffBefore.out());

    Run applied =
        run(new ApplyCommand(), "-f", dir.toString(), "--prune", "--inventory", inventory);
    assertEquals(0, applied.exit(), applied.out() + applied.err());
    assertTrue(applied.out().contains("created    ConfigMap/" + ns + "/cli-config"), applied.out());
    assertTrue(applied.out().contains("TOTAL"), applied.out());
    assertFalse(applied.out().contains(PASSWORD_V1));
    var stored = admin.configMaps().inNamespace("default").withName(inventory).get();
    assertNotNull(stored, "inventory kept in a ConfigMap in the kubeconfig's default namespace");
    assertTrue(stored.getData().get("inventory").contains(ns + "_cli-secret__Secret"));

    Run clean = run(new DiffCommand(), "-f", dir.toString(), "--inventory", inventory);
    assertEquals(0, clean.exit(), clean.out() + clean.err());

    write("debug", PASSWORD_V2);
    Run changed = run(new DiffCommand(), "-f", dir.toString(), "--inventory", inventory);
    assertEquals(1, changed.exit(), changed.err());
    String out = changed.out();
    assertTrue(out.contains("~ ConfigMap/" + ns + "/cli-config (would change)"), out);
    assertTrue(out.contains("-  level: \"info\"") && out.contains("+  level: \"debug\""), out);
    assertTrue(out.contains("+  password: \"*** (changed)\""), out);
    assertTrue(out.contains("   user: \"*** (unchanged)\""), out);
    assertFalse(out.contains(PASSWORD_V1) || out.contains(PASSWORD_V2), out);
    assertFalse(out.contains(Base64.getEncoder().encodeToString(PASSWORD_V1.getBytes())), out);
    assertFalse(out.contains("managedFields") || out.contains("resourceVersion"), out);

    Files.delete(dir.resolve("app.yaml"));
    Files.writeString(
        dir.resolve("only.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cli-config, namespace: "
            + ns
            + "}\ndata: {level: debug}\n");
    Run pruned = run(new ApplyCommand(), "-f", dir.toString(), "--prune", "--inventory", inventory);
    assertEquals(0, pruned.exit(), pruned.out() + pruned.err());
    assertTrue(pruned.out().contains("deleted    Secret/" + ns + "/cli-secret"), pruned.out());
    assertNull(admin.secrets().inNamespace(ns).withName("cli-secret").get());
    admin.configMaps().inNamespace("default").withName(inventory).delete();
  }

  @Test
  void waitReportsWhenTheAppliedObjectsAreHealthy() throws Exception {
    Files.writeString(
        dir.resolve("deploy.yaml"),
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: waited, namespace: %s}
        spec:
          replicas: 1
          selector: {matchLabels: {app: waited}}
          template:
            metadata: {labels: {app: waited}}
            spec:
              containers: [{name: app, image: "registry.example/app:1"}]
        """
            .formatted(ns));
    Run waited = run(new ApplyCommand(), "-f", dir.toString(), "--wait", "--timeout", "2m");
    assertEquals(0, waited.exit(), waited.out() + waited.err());
    assertTrue(waited.out().contains("wait: all 1 objects are Current"), waited.out());
  }

  @Test
  void badInputIsReportedPerObjectWithoutAStackTrace() throws Exception {
    Files.writeString(
        dir.resolve("bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [oops\n");
    Run malformed = run(new ApplyCommand(), "-f", dir.toString());
    assertEquals(2, malformed.exit());
    assertTrue(
        malformed.err().startsWith("error: ") && malformed.err().contains("bad.yaml"),
        malformed.err());

    Files.writeString(
        dir.resolve("bad.yaml"),
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: fine, namespace: %s}
        ---
        apiVersion: nowhere.example/v1
        kind: Thing
        metadata: {name: t, namespace: %s}
        """
            .formatted(ns, ns));
    Run unknown = run(new ApplyCommand(), "-f", dir.toString());
    assertEquals(1, unknown.exit());
    assertTrue(
        unknown
            .out()
            .contains("failed     Thing/" + ns + "/t: unknown kind Thing in nowhere.example/v1"),
        unknown.out());
    assertTrue(unknown.out().contains("skipped    ConfigMap/" + ns + "/fine"), unknown.out());
    assertFalse((unknown.out() + unknown.err()).contains("\tat "), "no stack trace");
    assertNull(admin.configMaps().inNamespace(ns).withName("fine").get());
  }
}
