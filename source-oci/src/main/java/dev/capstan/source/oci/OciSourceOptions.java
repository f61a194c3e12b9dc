package dev.capstan.source.oci;

import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.store.ArtifactStore;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Clock;
import java.util.Objects;

/**
 * Configuration of an {@link OciSource}.
 *
 * @param store the artifact store, shared with the other kinds of source
 * @param layerLimit the largest (compressed) layer downloaded
 * @param limits what a layer may unpack to
 * @param reads ends the reads of response bodies at a pull's deadline; one with a thread of its own
 *     when null
 */
@RecordBuilder
public record OciSourceOptions(
    ArtifactStore store,
    Clock clock,
    long layerLimit,
    LayerUnpacker.Limits limits,
    ReadDeadlines reads)
    implements OciSourceOptionsBuilder.With {

  public static final long DEFAULT_LAYER_LIMIT = 512L << 20;
  public static final LayerUnpacker.Limits DEFAULT_LIMITS =
      new LayerUnpacker.Limits(512L << 20, 100_000);

  public OciSourceOptions {
    Objects.requireNonNull(store, "store");
    clock = clock == null ? Clock.systemUTC() : clock;
    layerLimit = layerLimit <= 0 ? DEFAULT_LAYER_LIMIT : layerLimit;
    limits = limits == null ? DEFAULT_LIMITS : limits;
    reads = reads == null ? ReadDeadlines.withOwnThread(clock) : reads;
  }

  public static OciSourceOptions of(ArtifactStore store, Clock clock) {
    return new OciSourceOptions(store, clock, 0, null, null);
  }

  public OciSourceOptions withLimits(long layer, LayerUnpacker.Limits unpacked) {
    return withLayerLimit(layer).withLimits(unpacked);
  }
}
