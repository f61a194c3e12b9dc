package dev.capstan.cli.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.oci.ArtifactPusher;
import dev.capstan.source.oci.RegistryCredentials;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The options of {@code capstan push artifact} as they reach the push: the ignore rules, and the
 * credentials from the flag, standard input, the environment or the Docker config (nothing is
 * pushed here; RegistryAuthIT pushes to a registry that checks them).
 */
class PushArtifactCommandTest {
  private static final String URL = "oci://registry.example/team/app:v1";

  @TempDir Path dir;
  @TempDir Path home;

  private Map<String, String> environment(String creds) {
    // An empty Docker config directory: the test runs with none of the user's own.
    return creds == null
        ? Map.of("DOCKER_CONFIG", home.toString())
        : Map.of("DOCKER_CONFIG", home.toString(), PushCredentials.ENVIRONMENT, creds);
  }

  private ArtifactPusher.Push parsed(Map<String, String> env, String stdin, String... more)
      throws Exception {
    PushArtifactCommand command = command(env, stdin);
    new CommandLine(command).parseArgs(arguments(more));
    return command.push();
  }

  private static PushArtifactCommand command(Map<String, String> env, String stdin) {
    InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    return new PushArtifactCommand(env, in);
  }

  private String[] arguments(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                URL,
                "--path",
                dir.toString(),
                "--source",
                "https://git.example/app.git",
                "--revision",
                "main@sha1:0123456789abcdef0123456789abcdef01234567"));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  @Test
  void ignorePathsAreTheRulesGivenOrNoneForTheDefaults() throws Exception {
    assertNull(parsed(environment(null), "").ignore(), "the packer's defaults");
    assertEquals(
        "*.md\nvendor/\n!vendor/keep.yaml",
        parsed(
                environment(null),
                "",
                "--ignore-paths",
                "*.md,vendor/",
                "--ignore-paths",
                "!vendor/keep.yaml")
            .ignore());
  }

  @Test
  void credentialsComeFromTheFlag() throws Exception {
    assertEquals(
        Optional.of(new RegistryCredentials("robot", "s3cret:with-colon")),
        parsed(environment("env-user:env-pass"), "", "--creds", "robot:s3cret:with-colon")
            .credentials());
  }

  @Test
  void credentialsComeFromTheFirstLineOfStandardInput() throws Exception {
    assertEquals(
        Optional.of(new RegistryCredentials("robot", "from-stdin")),
        parsed(environment("env-user:env-pass"), "robot:from-stdin\r\nignored\n", "--creds-stdin")
            .credentials());
  }

  @Test
  void credentialsComeFromTheEnvironmentWithoutAFlag() throws Exception {
    assertEquals(
        Optional.of(new RegistryCredentials("env-user", "env-pass")),
        parsed(environment("env-user:env-pass"), "").credentials());
    assertEquals(Optional.empty(), parsed(environment(null), "").credentials());
  }

  @Test
  void credentialsComeFromTheDockerConfigLast() throws Exception {
    Files.writeString(
        home.resolve("config.json"),
        "{\"auths\": {\"registry.example\": {\"auth\": \"ZG9ja2VyOmZyb20tY29uZmln\"}}}");
    assertEquals(
        Optional.of(new RegistryCredentials("docker", "from-config")),
        parsed(environment(null), "").credentials());
    assertEquals(
        Optional.of(new RegistryCredentials("env-user", "env-pass")),
        parsed(environment("env-user:env-pass"), "").credentials());
  }

  @Test
  void unusableCredentialsAreBadInputNamingWhereTheyCameFromNeverTheirValue() throws IOException {
    assertEquals(
        "--creds and --creds-stdin cannot be given together",
        refused(environment(null), "", "--creds", "robot:pass", "--creds-stdin"));
    assertEquals(
        "--creds-stdin holds no credentials; expected USER[:PASSWORD]",
        refused(environment(null), "\nrobot:pass\n", "--creds-stdin"));
    String tooLong = "robot:" + "p".repeat(PushCredentials.MAX_STDIN_BYTES);
    String message = refused(environment(null), tooLong, "--creds-stdin");
    assertEquals(
        "--creds-stdin: the first line of standard input is longer than 65536 bytes", message);
  }

  /** Runs the command as the command line does; returns its one line of error, exit code 2. */
  private String refused(Map<String, String> env, String stdin, String... more) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(command(env, stdin));
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    assertEquals(2, cli.execute(arguments(more)), err.toString());
    String text = err.toString().strip();
    assertFalse(text.contains("pass"), text);
    assertTrue(text.startsWith("error: ") && !text.contains("\n"), text);
    return text.substring("error: ".length());
  }
}
