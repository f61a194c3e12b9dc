package dev.capstan.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway SSH key made with OpenSSH's {@code ssh-keygen}, to sign commits and tags with (by
 * {@code git} itself, see {@link #gitSigningOptions}, or by {@code ssh-keygen -Y sign}) and to
 * check signatures with {@code ssh-keygen -Y verify}. Its fingerprint is OpenSSH's own.
 *
 * @param privateKeyFile the private key file, as git's {@code user.signingkey} takes it
 * @param publicKey the public key as an {@code authorized_keys} line (type, base64, comment)
 * @param fingerprint the SHA-256 fingerprint as {@code ssh-keygen -l} prints it: {@code
 *     SHA256:<base64>}
 */
public record SshTestKey(Path privateKeyFile, String publicKey, String fingerprint) {

  /**
   * @param dir where the key files are written (created if missing)
   * @param name the files' name, also the key's comment
   * @param type {@code ed25519}, {@code ecdsa} or {@code rsa}
   */
  public static SshTestKey generate(Path dir, String name, String type) {
    try {
      Files.createDirectories(dir);
      Path key = dir.resolve(name);
      List<String> command =
          new ArrayList<>(
              List.of("ssh-keygen", "-q", "-t", type, "-N", "", "-C", name, "-f", key.toString()));
      if (type.equals("rsa")) {
        command.addAll(List.of("-b", "3072"));
      }
      run(dir, command);
      String publicKey = Files.readString(dir.resolve(name + ".pub")).strip();
      String listing = run(dir, List.of("ssh-keygen", "-l", "-E", "sha256", "-f", key + ".pub"));
      return new SshTestKey(key, publicKey, listing.split(" ")[1]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** This key's OpenSSH user certificate signed by {@code authority}, as its one-line text. */
  public String certificateBy(SshTestKey authority) {
    try {
      run(
          privateKeyFile.getParent(),
          List.of(
              "ssh-keygen",
              "-q",
              "-s",
              authority.privateKeyFile.toString(),
              "-I",
              "test",
              privateKeyFile + ".pub"));
      return Files.readString(Path.of(privateKeyFile + "-cert.pub")).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code -c} options that make {@code git commit -S} and {@code git tag -s} use this key. */
  public List<String> gitSigningOptions() {
    return List.of("-c", "gpg.format=ssh", "-c", "user.signingkey=" + privateKeyFile);
  }

  /**
   * An armored SSH signature of {@code data} in {@code namespace}, by {@code ssh-keygen -Y sign}.
   */
  public byte[] sign(byte[] data, String namespace) {
    try {
      Path file = Files.createTempFile(privateKeyFile.getParent(), "data", "");
      Files.write(file, data);
      run(
          file.getParent(),
          List.of(
              "ssh-keygen",
              "-q",
              "-Y",
              "sign",
              "-f",
              privateKeyFile.toString(),
              "-n",
              namespace,
              file.toString()));
      Path signature = Path.of(file + ".sig");
      byte[] armored = Files.readAllBytes(signature);
      Files.delete(signature);
      Files.delete(file);
      return armored;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether {@code ssh-keygen -Y verify} accepts {@code signature} as this key's over {@code data}
   * in {@code namespace}.
   */
  public boolean verifiedByOpenSsh(byte[] data, byte[] signature, String namespace) {
    try {
      Path dir = Files.createTempDirectory(privateKeyFile.getParent(), "verify");
      Path signers = Files.writeString(dir.resolve("allowed"), "signer " + publicKey + "\n");
      Path sig = Files.write(dir.resolve("data.sig"), signature);
      Process process =
          new ProcessBuilder(
                  "ssh-keygen",
                  "-Y",
                  "verify",
                  "-f",
                  signers.toString(),
                  "-I",
                  "signer",
                  "-n",
                  namespace,
                  "-s",
                  sig.toString())
              .redirectErrorStream(true)
              .start();
      try (var in = process.getOutputStream()) {
        in.write(data);
      }
      process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("ssh-keygen -Y verify did not finish");
      }
      return process.exitValue() == 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String run(Path dir, List<String> command) throws IOException {
    return Commands.run(dir, command, Map.of());
  }
}
