package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class BuildCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = new CommandLine(new BuildCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @Test
  void printsWhatKustomizePrints(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("base"));
    Files.createDirectories(dir.resolve("prod"));
    Files.writeString(dir.resolve("base/kustomization.yaml"), "resources: [cm.yaml]\n");
    Files.writeString(
        dir.resolve("base/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {mode: 0755}\n");
    Files.writeString(
        dir.resolve("prod/kustomization.yaml"), "namePrefix: prod-\nresources: [../base]\n");
    assertEquals(0, run("-f", dir.resolve("prod").toString(), "--root", dir.toString()));
    assertEquals(
        """
        apiVersion: v1
        data:
          mode: 493
        kind: ConfigMap
        metadata:
          name: prod-c
        """,
        out.toString());
    assertFalse(out.toString().contains("capstan.dev"), "no Capstan labels");
  }

  @Test
  void badInputExitsTwoWithKustomizesMessage(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("bad.yaml"), "kind: ConfigMap\napiVersion: v1\nmetadata: {name: [x\n");
    assertEquals(BuildCommand.BAD_INPUT, run("-f", dir.toString()));
    assertTrue(
        err.toString()
            .startsWith("capstan build: failed to decode Kubernetes YAML from bad.yaml: "),
        err.toString());
    assertEquals("", out.toString());
  }

  @Test
  void refusesResourcesOutsideTheRoot(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("base"));
    Files.createDirectories(dir.resolve("prod"));
    Files.writeString(
        dir.resolve("base/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    Files.writeString(dir.resolve("prod/kustomization.yaml"), "resources: [../base/cm.yaml]\n");
    Path prod = dir.resolve("prod");
    assertEquals(BuildCommand.BAD_INPUT, run("-f", prod.toString(), "--root", prod.toString()));
    assertTrue(err.toString().contains("base/cm.yaml"), err.toString());
  }

  /** An exported tree (no .git): the default root is the -f directory, so ../base is outside it. */
  private static Path exportedTree(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("base"));
    Files.createDirectories(dir.resolve("prod"));
    Files.writeString(dir.resolve("base/kustomization.yaml"), "resources: [cm.yaml]\n");
    Files.writeString(
        dir.resolve("base/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    Files.writeString(dir.resolve("prod/kustomization.yaml"), "resources: [../base]\n");
    return dir.resolve("prod");
  }

  @Test
  void withoutGitTheErrorNamesTheRootAndTheFlag(@TempDir Path dir) throws Exception {
    Path prod = exportedTree(dir);
    assertEquals(BuildCommand.BAD_INPUT, run("-f", prod.toString()));
    assertTrue(
        err.toString()
            .contains(
                "(files are read only under the root "
                    + prod.toAbsolutePath().normalize()
                    + ", the -f directory, as no Git work tree encloses it; choose another with"
                    + " --root DIR)"),
        err.toString());
    assertEquals(1, err.toString().lines().count(), err.toString());
  }

  @Test
  void theRootFlagBuildsTheExportedTree(@TempDir Path dir) throws Exception {
    Path prod = exportedTree(dir);
    assertEquals(0, run("-f", prod.toString(), "--root", dir.toString()), err.toString());
    assertTrue(out.toString().contains("name: c"), out.toString());
  }

  @Test
  void theEnclosingGitWorkTreeIsTheDefaultRoot(@TempDir Path dir) throws Exception {
    Path prod = exportedTree(dir);
    Files.createDirectories(dir.resolve(".git"));
    assertEquals(0, run("-f", prod.toString()), err.toString());
    assertTrue(out.toString().contains("name: c"), out.toString());
  }

  /** One name a class of characters the file system allows: each is part of both builds' paths. */
  @ParameterizedTest
  @ValueSource(
      strings = {"a b", "at@sign", "plus+sign", "tilde~", "per%cent", "com,ma", "é-accent"})
  void anyNameTheFileSystemAllowsBuilds(String name, @TempDir Path dir) throws Exception {
    Path plain = exportedTree(dir.resolve("plain").resolve(name));
    assertEquals(
        0, run("-f", plain.toString(), "--root", plain.getParent().toString()), err.toString());
    Path inGit = exportedTree(dir.resolve("git").resolve(name));
    Files.createDirectories(dir.resolve("git").resolve(".git"));
    assertEquals(0, run("-f", inGit.toString()), err.toString());
    assertEquals(2, out.toString().split("name: c\n", -1).length - 1, out.toString());
  }

  /**
   * The -f directory, its parent and the base it reaches through ../ all carry one class of
   * characters the file system allows (the last value mixes them all): it builds under --root
   * outside Git and from a real Git work tree with its default root.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "a b",
        "at@sign",
        "plus+sign",
        "tilde~",
        "per%cent",
        "com,ma",
        "é-accent",
        "a b@c+d~e%f,gé名"
      })
  void anyNameOnEveryDirectoryOfThePathBuilds(String name, @TempDir Path dir) throws Exception {
    Path plain = oddlyNamedTree(dir.resolve("plain").resolve(name), name);
    assertEquals(
        0, run("-f", plain.toString(), "--root", plain.getParent().toString()), err.toString());
    Path workTree = dir.resolve("git").resolve(name);
    Path inGit = oddlyNamedTree(workTree, name);
    Process init = new ProcessBuilder("git", "init", "-q", workTree.toString()).start();
    assertEquals(0, init.waitFor(), new String(init.getErrorStream().readAllBytes()));
    assertEquals(0, run("-f", inGit.toString()), err.toString());
    assertEquals(2, out.toString().split("name: odd-base\n", -1).length - 1, out.toString());
    assertEquals(2, out.toString().split("name: odd-own\n", -1).length - 1, out.toString());
  }

  /** DIR/NAME (returned) holds a ConfigMap and reaches DIR/base NAME through ../ for another. */
  private static Path oddlyNamedTree(Path dir, String name) throws Exception {
    Path own = Files.createDirectories(dir.resolve(name));
    Path base = Files.createDirectories(dir.resolve("base " + name));
    Files.writeString(base.resolve("kustomization.yaml"), "resources:\n- cm.yaml\n");
    Files.writeString(
        base.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd-base}\n");
    Files.writeString(
        own.resolve("kustomization.yaml"), "resources:\n- cm.yaml\n- \"../base " + name + "\"\n");
    Files.writeString(
        own.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd-own}\n");
    return own;
  }

  @Test
  void aDirectoryOutsideTheRootSaysWhichRoot(@TempDir Path dir) throws Exception {
    Path prod = exportedTree(dir);
    assertEquals(
        BuildCommand.BAD_INPUT,
        run("-f", prod.toString(), "--root", dir.resolve("base").toString()));
    assertEquals(
        "capstan build: "
            + prod
            + " is not inside the root "
            + dir.resolve("base")
            + " (set with --root); choose another with --root DIR\n",
        err.toString());
  }

  @Test
  void aSmallKustomizationInALargeWorkTreeReadsOnlyWhatItUses(@TempDir Path dir) throws Exception {
    // A monorepo: the build reads the files kustomize asks for, not a copy of the whole work tree,
    // so no count of the tree's files applies to it.
    Path prod = exportedTree(dir);
    Files.createDirectories(dir.resolve(".git"));
    for (int d = 0; d < 120; d++) {
      Path many = Files.createDirectories(dir.resolve("other/" + d));
      for (int f = 0; f < 1000; f++) {
        Files.createFile(many.resolve(Integer.toString(f)));
      }
    }
    assertEquals(0, run("-f", prod.toString()), err.toString());
    assertTrue(out.toString().contains("name: c"), out.toString());
  }
}
