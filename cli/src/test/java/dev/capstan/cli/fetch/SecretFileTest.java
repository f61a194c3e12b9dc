package dev.capstan.cli.fetch;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretFileTest {

  @TempDir Path tmp;

  @Test
  void jsonManifest() throws Exception {
    Path f = tmp.resolve("s.json");
    Files.writeString(
        f, "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"data\":{\"bearerToken\":" + "\"dG9r\"}}");
    assertArrayEquals("tok".getBytes(UTF_8), SecretFile.read(f).get("bearerToken"));
  }

  @Test
  void keyValueWithFileReference() throws Exception {
    Files.writeString(tmp.resolve("id"), "-----BEGIN KEY-----\nabc\n-----END KEY-----\n");
    Path f = tmp.resolve("s.env");
    Files.writeString(f, "identity=@id\nknown_hosts=host ssh-ed25519 AAAA\n");
    Map<String, byte[]> data = SecretFile.read(f);
    assertTrue(new String(data.get("identity"), UTF_8).contains("abc\n"));
    assertEquals("host ssh-ed25519 AAAA", new String(data.get("known_hosts"), UTF_8));
  }

  @Test
  void errorsNameFileAndKey() throws Exception {
    Path f = tmp.resolve("bad.env");
    Files.writeString(f, "username=x\njust-a-line\n");
    var e = assertThrows(SecretFile.InvalidSecretFile.class, () -> SecretFile.read(f));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());

    Path cm = tmp.resolve("cm.yaml");
    Files.writeString(cm, "kind: ConfigMap\ndata:\n  a: b\n");
    var k = assertThrows(SecretFile.InvalidSecretFile.class, () -> SecretFile.read(cm));
    assertTrue(k.getMessage().contains("ConfigMap"), k.getMessage());
  }

  @Test
  void anEntryThatIsNotBase64IsNamedByItsKeyWithoutItsValue() throws Exception {
    Path f = tmp.resolve("bad.yaml");
    Files.writeString(f, "kind: Secret\ndata:\n  password: '%%%'\n");
    var e = assertThrows(SecretFile.InvalidSecretFile.class, () -> SecretFile.read(f));
    assertTrue(e.getMessage().contains("entry 'password' is not Base64"), e.getMessage());
    assertTrue(!e.getMessage().contains("%%%"), e.getMessage());
  }
}
