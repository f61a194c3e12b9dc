package dev.capstan.api.common;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;

/**
 * A namespaced Capstan kind whose spec and status are records. A record has no constructor without
 * arguments for the client to make an empty one with, so a new object starts without either, as one
 * read from the API server without a status does. The kind itself declares its group, names and
 * printer columns: the CRD generator reads them from the kind's own class.
 */
public abstract class RecordResource<S, T> extends CustomResource<S, T> implements Namespaced {

  @Override
  protected final S initSpec() {
    return null;
  }

  @Override
  protected final T initStatus() {
    return null;
  }
}
