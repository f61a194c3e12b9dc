package dev.capstan.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/** The file --open opens holds the token: only its user may read it. */
class LaunchPageTest {

  @Test
  void onlyTheUserMayReadItAndItSendsTheBrowserOn() throws IOException {
    Path page = LaunchPage.write("http://127.0.0.1:9595/?token=abc\"><x&y");
    try {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(page)));
      String html = Files.readString(page);
      assertTrue(
          html.contains("content=\"0;url=http://127.0.0.1:9595/?token=abc&quot;&gt;&lt;x&amp;y\""),
          html);
      assertFalse(html.contains("<x"), html);
    } finally {
      Files.delete(page);
    }
  }
}
