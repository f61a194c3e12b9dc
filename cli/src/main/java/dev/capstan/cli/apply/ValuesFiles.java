package dev.capstan.cli.apply;

import dev.capstan.cli.cluster.CliException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --values} files of {@code capstan build chart}, read as the documents the chart worker
 * merges: each must be UTF-8, as Helm's YAML reader requires (a file that is not is refused, not
 * read with replaced characters that Helm would not see).
 */
final class ValuesFiles {
  private ValuesFiles() {}

  static List<String> read(List<Path> files) {
    List<String> documents = new ArrayList<>();
    for (Path file : files) {
      documents.add(read(file));
    }
    return documents;
  }

  private static String read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new CliException("cannot read the values file " + file, CliException.BAD_INPUT);
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CliException(
          "the values file " + file + " is not UTF-8 text", CliException.BAD_INPUT);
    }
  }
}
