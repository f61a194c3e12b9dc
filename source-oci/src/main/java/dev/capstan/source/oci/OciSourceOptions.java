package dev.capstan.source.oci;

import dev.capstan.source.ArtifactStore;
import java.time.Clock;
import java.util.Objects;

/**
 * Configuration of an {@link OciSource}.
 *
 * @param store the artifact store, shared with the other kinds of source
 * @param layerLimit the largest (compressed) layer downloaded
 * @param limits what a layer may unpack to
 */
public record OciSourceOptions(
    ArtifactStore store, Clock clock, long layerLimit, LayerUnpacker.Limits limits) {

  public static final long DEFAULT_LAYER_LIMIT = 512L << 20;
  public static final LayerUnpacker.Limits DEFAULT_LIMITS =
      new LayerUnpacker.Limits(512L << 20, 100_000);

  public OciSourceOptions {
    Objects.requireNonNull(store, "store");
    clock = clock == null ? Clock.systemUTC() : clock;
    layerLimit = layerLimit <= 0 ? DEFAULT_LAYER_LIMIT : layerLimit;
    limits = limits == null ? DEFAULT_LIMITS : limits;
  }

  public static OciSourceOptions of(ArtifactStore store, Clock clock) {
    return new OciSourceOptions(store, clock, 0, null);
  }

  public OciSourceOptions withLimits(long layer, LayerUnpacker.Limits unpacked) {
    return new OciSourceOptions(store, clock, layer, unpacked);
  }
}
