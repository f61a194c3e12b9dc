package dev.capstan.applier.wait;

import dev.capstan.kube.ObjectRef;

/** Where a wait reads objects: the API server, or an informer's cache. Must not throw. */
@FunctionalInterface
public interface ObjectLookup {
  Lookup find(ObjectRef ref);
}
