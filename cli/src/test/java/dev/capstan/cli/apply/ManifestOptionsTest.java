package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** apply and diff build DIR as build does: the same root, the same --root, the same message. */
class ManifestOptionsTest {
  @TempDir Path dir;

  private Path exportedTree() throws Exception {
    Files.createDirectories(dir.resolve("base"));
    Files.createDirectories(dir.resolve("prod"));
    Files.writeString(dir.resolve("base/kustomization.yaml"), "resources: [cm.yaml]\n");
    Files.writeString(
        dir.resolve("base/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    Files.writeString(dir.resolve("prod/kustomization.yaml"), "resources: [../base]\n");
    return dir.resolve("prod");
  }

  private static String[] run(Callable<Integer> command, int[] exit, String... args) {
    StringWriter err = new StringWriter();
    CommandLine cli =
        new CommandLine(command)
            .setErr(new PrintWriter(err))
            .setOut(new PrintWriter(new StringWriter()));
    exit[0] = cli.execute(args);
    return err.toString().lines().toArray(String[]::new);
  }

  @Test
  void applyAndDiffNameTheRootAndTheFlag() throws Exception {
    Path prod = exportedTree();
    for (Callable<Integer> command : new Callable[] {new ApplyCommand(), new DiffCommand()}) {
      int[] exit = new int[1];
      String[] err =
          run(command, exit, "-f", prod.toString(), "--kubeconfig", dir.resolve("none").toString());
      assertEquals(2, exit[0], String.join("\n", err));
      assertEquals(1, err.length, String.join("\n", err));
      assertTrue(
          err[0].startsWith("error: ")
              && err[0].endsWith(
                  "(files are read only under the root "
                      + prod
                      + ", the -f directory, as no Git work tree encloses it; choose another with"
                      + " --root DIR)"),
          err[0]);
    }
  }

  @Test
  void applyAndDiffTakeTheRoot() throws Exception {
    Path prod = exportedTree();
    for (Callable<Integer> command : new Callable[] {new ApplyCommand(), new DiffCommand()}) {
      int[] exit = new int[1];
      Path none = dir.resolve("none");
      String[] err =
          run(
              command,
              exit,
              "-f",
              prod.toString(),
              "--root",
              dir.toString(),
              "--kubeconfig",
              none.toString());
      // built: what stops it now is the missing cluster
      assertEquals(1, err.length, String.join("\n", err));
      assertEquals("error: kubeconfig " + none + " does not exist or cannot be read", err[0]);
    }
  }
}
