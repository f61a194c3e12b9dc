package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.oci.testing.Layers;
import dev.capstan.testing.OciRegistry;
import dev.capstan.testing.RepoRoot;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry behind token authentication and TLS, then mutual TLS: the pull presents the Docker
 * config Secret's credentials to the token service, trusts the cert Secret's CA, presents its
 * client certificate, and never sends a credential in a message.
 */
class RegistryAuthIT {
  @TempDir Path work;

  private OciSource source() {
    return new OciSource(
        OciSourceOptions.of(new ArtifactStore(work.resolve("store"), Clock.systemUTC()), null));
  }

  private Path tree() throws Exception {
    Path dir = work.resolve("tree");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("cm.yaml"), "kind: ConfigMap\n");
    return dir;
  }

  @Test
  void tokenAuthenticationOverTls() throws Exception {
    try (OciRegistry registry =
        OciRegistry.start(
            work.resolve("registry"),
            new OciRegistry.Options(true, false, OciRegistry.Auth.TOKEN))) {
      OciSourceIT.push(
          registry.url("team/app") + ":v1",
          tree(),
          "--creds",
          OciRegistry.USERNAME + ":" + OciRegistry.PASSWORD,
          "--ca-file",
          registry.caFile().toString());
      Map<String, byte[]> pullSecret =
          Map.of(
              ".dockerconfigjson",
              registry
                  .dockerConfigJson(OciRegistry.USERNAME, OciRegistry.PASSWORD)
                  .getBytes(StandardCharsets.UTF_8));
      Map<String, byte[]> certSecret =
          Map.of("ca.crt", registry.ca().certificatePem().getBytes(StandardCharsets.UTF_8));
      OciFetchRequest request =
          OciFetchRequest.of("k", registry.url("team/app"), OciRef.tag("v1"))
              .withPullSecrets(List.of(pullSecret))
              .withCertSecret(certSecret);
      OciSource source = source();

      assertInstanceOf(FetchResult.Fetched.class, source.fetch(request));
      int tokens = registry.tokensIssued();
      int requests = registry.requests().size();
      assertInstanceOf(FetchResult.Unchanged.class, source.fetch(request));
      assertEquals(tokens, registry.tokensIssued(), "the token is reused while it is valid");
      assertEquals(requests + 1, registry.requests().size(), "one HEAD, no challenge");

      FetchResult.Failed anonymous =
          assertInstanceOf(
              FetchResult.Failed.class,
              source()
                  .fetch(
                      OciFetchRequest.of("k2", registry.url("team/app"), OciRef.tag("v1"))
                          .withCertSecret(certSecret)));
      assertEquals(FailureReason.AUTHENTICATION_FAILED, anonymous.reason());
      assertTrue(anonymous.message().contains("requires credentials"), anonymous.message());

      String wrongPassword = "wrong-" + OciRegistry.PASSWORD;
      FetchResult.Failed refused =
          assertInstanceOf(
              FetchResult.Failed.class,
              source()
                  .fetch(
                      OciFetchRequest.of("k3", registry.url("team/app"), OciRef.tag("v1"))
                          .withCertSecret(certSecret)
                          .withPullSecrets(
                              List.of(
                                  Map.of(
                                      ".dockerconfigjson",
                                      registry
                                          .dockerConfigJson(OciRegistry.USERNAME, wrongPassword)
                                          .getBytes(StandardCharsets.UTF_8))))));
      assertEquals(FailureReason.AUTHENTICATION_FAILED, refused.reason());
      assertFalse(refused.message().contains(wrongPassword), refused.message());

      FetchResult.Failed untrusted =
          assertInstanceOf(
              FetchResult.Failed.class,
              source()
                  .fetch(
                      OciFetchRequest.of("k4", registry.url("team/app"), OciRef.tag("v1"))
                          .withPullSecrets(List.of(pullSecret))));
      assertEquals(FailureReason.OCI_PULL_FAILED, untrusted.reason(), untrusted.message());
    }
  }

  /**
   * The launcher users run, given the credentials in the environment or on standard input instead
   * of the command line: the registry's token service takes them, a wrong one is refused without
   * being told, and what was pushed is pulled with the same credentials.
   */
  @Test
  void thePushCommandTakesCredentialsFromTheEnvironmentOrStandardInput() throws Exception {
    try (OciRegistry registry =
        OciRegistry.start(
            work.resolve("registry"),
            new OciRegistry.Options(true, false, OciRegistry.Auth.TOKEN))) {
      String creds = OciRegistry.USERNAME + ":" + OciRegistry.PASSWORD;
      Launched fromEnvironment =
          launchPush(registry, "env", Map.of("CAPSTAN_REGISTRY_CREDS", creds), "");
      assertEquals(0, fromEnvironment.exit(), fromEnvironment.output());
      Launched fromStdin = launchPush(registry, "stdin", Map.of(), creds + "\n", "--creds-stdin");
      assertEquals(0, fromStdin.exit(), fromStdin.output());
      String wrong = OciRegistry.USERNAME + ":wrong-" + OciRegistry.PASSWORD;
      Launched refused = launchPush(registry, "wrong", Map.of("CAPSTAN_REGISTRY_CREDS", wrong), "");
      assertEquals(1, refused.exit(), refused.output());
      assertFalse(refused.output().contains("wrong-"), refused.output());

      Map<String, byte[]> pullSecret =
          Map.of(
              ".dockerconfigjson",
              registry
                  .dockerConfigJson(OciRegistry.USERNAME, OciRegistry.PASSWORD)
                  .getBytes(StandardCharsets.UTF_8));
      Map<String, byte[]> certSecret =
          Map.of("ca.crt", registry.ca().certificatePem().getBytes(StandardCharsets.UTF_8));
      for (String tag : List.of("env", "stdin")) {
        assertInstanceOf(
            FetchResult.Fetched.class,
            source()
                .fetch(
                    OciFetchRequest.of("k-" + tag, registry.url("team/app"), OciRef.tag(tag))
                        .withPullSecrets(List.of(pullSecret))
                        .withCertSecret(certSecret)));
      }
    }
  }

  private record Launched(int exit, String output) {}

  /** Runs bin/capstan push artifact with no Docker config, this environment and standard input. */
  private Launched launchPush(
      OciRegistry registry, String tag, Map<String, String> env, String stdin, String... more)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                RepoRoot.find().resolve("bin/capstan").toString(),
                "push",
                "artifact",
                registry.url("team/app") + ":" + tag,
                "--path",
                tree().toString(),
                "--source",
                "https://git.example/team/app.git",
                "--revision",
                "main@sha1:0123456789abcdef0123456789abcdef01234567",
                "--ca-file",
                registry.caFile().toString()));
    command.addAll(List.of(more));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Path dockerConfig = Files.createDirectories(work.resolve("docker-config"));
    builder.environment().put("DOCKER_CONFIG", dockerConfig.toString());
    builder.environment().put("XDG_CACHE_HOME", work.resolve("cache").toString());
    builder
        .environment()
        .put("CAPSTAN_JAR", RepoRoot.find().resolve("cli/target/capstan.jar").toString());
    builder.environment().putAll(env);
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "capstan did not exit");
    return new Launched(process.exitValue(), output);
  }

  @Test
  void mutualTls() throws Exception {
    try (OciRegistry registry =
        OciRegistry.start(
            work.resolve("registry"), new OciRegistry.Options(true, true, OciRegistry.Auth.NONE))) {
      Map<String, byte[]> withClient =
          Map.of(
              "ca.crt", registry.ca().certificatePem().getBytes(StandardCharsets.UTF_8),
              "tls.crt", registry.client().certificatePem().getBytes(StandardCharsets.UTF_8),
              "tls.key", registry.client().keyPem().getBytes(StandardCharsets.UTF_8));
      Path dir = tree();
      // Pushed with the pusher's own client: the push command has no client certificate option.
      pushWithClientCertificate(registry, dir, withClient);

      assertInstanceOf(
          FetchResult.Fetched.class,
          source()
              .fetch(
                  OciFetchRequest.of("k", registry.url("team/mtls"), OciRef.tag("v1"))
                      .withCertSecret(withClient)));
      FetchResult.Failed without =
          assertInstanceOf(
              FetchResult.Failed.class,
              source()
                  .fetch(
                      OciFetchRequest.of("k2", registry.url("team/mtls"), OciRef.tag("v1"))
                          .withCertSecret(
                              Map.of(
                                  "ca.crt",
                                  registry
                                      .ca()
                                      .certificatePem()
                                      .getBytes(StandardCharsets.UTF_8)))));
      assertEquals(FailureReason.OCI_PULL_FAILED, without.reason());
    }
  }

  private static void pushWithClientCertificate(
      OciRegistry registry, Path dir, Map<String, byte[]> certSecret) throws Exception {
    Path oras = OciRegistry.tool("oras");
    Path files = dir.getParent().resolve("oras-files");
    Files.createDirectories(files);
    Files.write(
        files.resolve("layer.tgz"), new Layers().file("cm.yaml", "kind: ConfigMap\n").bytes());
    Files.writeString(files.resolve("config.json"), "{}");
    Files.write(files.resolve("client.crt"), certSecret.get("tls.crt"));
    Files.write(files.resolve("client.key"), certSecret.get("tls.key"));
    Files.write(files.resolve("ca.crt"), certSecret.get("ca.crt"));
    ProcessBuilder builder =
        new ProcessBuilder(
                oras.toString(),
                "push",
                "--ca-file",
                "ca.crt",
                "--cert-file",
                "client.crt",
                "--key-file",
                "client.key",
                "--config",
                "config.json:" + ArtifactPusher.CONFIG_MEDIA_TYPE,
                registry.host() + "/team/mtls:v1",
                "layer.tgz:" + ArtifactPusher.CONTENT_MEDIA_TYPE)
            .directory(files.toFile())
            .redirectErrorStream(true);
    builder.environment().putAll(registry.orasEnvironment());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), output);
  }
}
