package dev.capstan.cli.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file {@code capstan ui --open} opens: a page only this user may read that sends the browser
 * on to the view's address. A browser started with the address itself would show its token to every
 * user of the machine, in its command line.
 */
public final class LaunchPage {
  private LaunchPage() {}

  /** Writes the page for {@code url} into a new temporary file; the caller deletes it. */
  public static Path write(String url) throws IOException {
    Path page;
    try {
      page =
          Files.createTempFile(
              "capstan-ui-open-",
              ".html",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      page = Files.createTempFile("capstan-ui-open-", ".html");
    }
    String href =
        url.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    Files.writeString(
        page,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta http-equiv=\"refresh\" content=\"0;url="
            + href
            + "\"><title>Capstan</title></head><body><a href=\""
            + href
            + "\">Open the view</a></body></html>\n");
    return page;
  }
}
