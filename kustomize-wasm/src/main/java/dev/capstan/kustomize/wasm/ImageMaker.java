package dev.capstan.kustomize.wasm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes the module's memory image at build time: {@code ImageMaker OUTPUT_DIRECTORY} writes
 * {@value MemoryImage#RESOURCE} into the package's directory there.
 */
public final class ImageMaker {
  private ImageMaker() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]).resolve(ImageMaker.class.getPackageName().replace('.', '/'))
        .resolve(MemoryImage.RESOURCE);
    Path empty = Files.createTempDirectory("kustomize-image");
    try {
      WasiSandbox wasi = new WasiSandbox();
      MemoryImage image = KustomizeInstance.prepareImage(wasi, empty, OutputStream.nullOutputStream());
      Files.createDirectories(out.getParent());
      try (OutputStream file = Files.newOutputStream(out)) {
        image.write(file);
      }
      System.out.printf("kustomize memory image: %d pages, %d of them not empty%n",
          image.pages(), image.pageIndexes().length);
    } finally {
      Files.deleteIfExists(empty);
    }
  }
}
