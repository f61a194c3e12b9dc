package dev.capstan.cli.migrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * The test's fleet repository, laid out as flux2-kustomize-helm-example's Kustomization part:
 * infrastructure controllers, infrastructure configs, and apps, each a kustomization of a few
 * Deployments, ConfigMaps and Services. Committed in a work tree and pushed to a bare repository
 * that the Git server serves.
 */
final class FleetRepository implements AutoCloseable {
  private static final PersonIdent OPERATOR = new PersonIdent("Operator", "operator@example.com");

  private final Git work;
  private final Path bare;

  private FleetRepository(Git work, Path bare) {
    this.work = work;
    this.bare = bare;
  }

  static FleetRepository create(Path bare, Path workTree) throws GitAPIException, IOException {
    try (Git git =
        Git.init().setBare(true).setInitialBranch("main").setDirectory(bare.toFile()).call()) {
      git.getRepository().getConfig().save();
    }
    Git work = Git.init().setInitialBranch("main").setDirectory(workTree.toFile()).call();
    FleetRepository fleet = new FleetRepository(work, bare);
    fleet.writeInitialLayout();
    return fleet;
  }

  private void writeInitialLayout() throws IOException {
    write("infrastructure/controllers/kustomization.yaml", "resources: [controller.yaml]\n");
    write(
        "infrastructure/controllers/controller.yaml",
        deployment("ingress-controller", "nginx:1.27")
            + "---\n"
            + configMap("ingress-controller-config", "log-level: info"));
    write("infrastructure/configs/kustomization.yaml", "resources: [configs.yaml]\n");
    write(
        "infrastructure/configs/configs.yaml",
        configMap("cluster-settings", "region: eu-west-1")
            + "---\n"
            + service("ingress", "ingress-controller"));
    write("apps/production/kustomization.yaml", "resources: [podinfo.yaml, flags.yaml]\n");
    write(
        "apps/production/podinfo.yaml",
        deployment("podinfo", "ghcr.io/stefanprodan/podinfo:6.7.0")
            + "---\n"
            + service("podinfo", "podinfo")
            + "---\n"
            + configMap("podinfo-config", "color: blue"));
    write("apps/production/flags.yaml", configMap("legacy-flags", "beta: \"true\""));
  }

  /** Commits the work tree as it is (additions and removals) and pushes; returns the commit. */
  String commit(String message) throws GitAPIException {
    work.add().addFilepattern(".").call();
    work.add().addFilepattern(".").setUpdate(true).call();
    String commit =
        work.commit()
            .setMessage(message)
            .setAuthor(OPERATOR)
            .setCommitter(OPERATOR)
            .setSign(false)
            .call()
            .getName();
    work.push().setRemote(bare.toUri().toString()).add("main").call();
    return commit;
  }

  void write(String path, String content) throws IOException {
    Path file = work.getRepository().getWorkTree().toPath().resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  void remove(String path) throws IOException {
    Files.delete(work.getRepository().getWorkTree().toPath().resolve(path));
  }

  static String configMap(String name, String data) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name
        + "\ndata:\n  "
        + data
        + "\n";
  }

  static String service(String name, String app) {
    return "apiVersion: v1\nkind: Service\nmetadata:\n  name: "
        + name
        + "\nspec:\n  selector:\n    app: "
        + app
        + "\n  ports:\n  - name: http\n    port: 80\n    targetPort: 8080\n";
  }

  static String deployment(String name, String image) {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "
        + name
        + "\n  labels:\n    app: "
        + name
        + "\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: "
        + name
        + "\n  template:\n    metadata:\n      labels:\n        app: "
        + name
        + "\n    spec:\n      containers:\n      - name: app\n        image: "
        + image
        + "\n";
  }

  @Override
  public void close() {
    work.close();
  }
}
