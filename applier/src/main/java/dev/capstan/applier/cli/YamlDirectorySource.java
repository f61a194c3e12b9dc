package dev.capstan.applier.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A plain directory of YAML or JSON files, read recursively in path order, each file possibly
 * holding several documents.
 */
public final class YamlDirectorySource implements ManifestSource {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Override
  public List<GenericKubernetesResource> load(Path dir) throws ManifestException {
    if (!Files.isDirectory(dir)) {
      throw new ManifestException(dir + ": not a directory");
    }
    List<GenericKubernetesResource> objects = new ArrayList<>();
    for (Path file : manifestFiles(dir)) {
      objects.addAll(read(file, dir.relativize(file)));
    }
    return objects;
  }

  private static List<Path> manifestFiles(Path dir) throws ManifestException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.toString().matches(".*\\.(ya?ml|json)$"))
          .sorted()
          .toList();
    } catch (IOException | UncheckedIOException e) {
      throw new ManifestException(dir + ": cannot list files: " + e.getMessage());
    }
  }

  @SuppressWarnings("rawtypes")
  static List<GenericKubernetesResource> read(Path file, Path shownAs) throws ManifestException {
    List<GenericKubernetesResource> objects = new ArrayList<>();
    try (JsonParser parser = YAML.getFactory().createParser(file.toFile());
        MappingIterator<Object> docs = YAML.readValues(parser, Object.class)) {
      int index = 0;
      while (docs.hasNextValue()) {
        index++;
        JsonLocation at = parser.currentLocation();
        Object doc = docs.nextValue();
        if (doc == null) {
          continue; // empty document between separators
        }
        if (!(doc instanceof Map map)) {
          throw new ManifestException(
              shownAs + ": document " + index + " (line " + at.getLineNr() + ") is not a mapping");
        }
        if (map.isEmpty()) {
          continue;
        }
        objects.add(Serialization.jsonMapper().convertValue(map, GenericKubernetesResource.class));
      }
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new ManifestException(shownAs + ":" + where + ": " + e.getOriginalMessage());
    } catch (IOException | RuntimeException e) {
      throw new ManifestException(shownAs + ": " + e.getMessage());
    }
    return objects;
  }
}
