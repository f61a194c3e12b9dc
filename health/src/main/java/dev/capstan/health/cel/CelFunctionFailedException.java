package dev.capstan.health.cel;

import dev.cel.common.CelErrorCode;

/**
 * A guarded function failed (a list of mixed types to sort, a negative depth to flatten), said
 * without the original exception as its cause, so without the call's arguments.
 */
final class CelFunctionFailedException extends MessageOnlyException {
  private static final long serialVersionUID = 1L;

  CelFunctionFailedException(String overloadId) {
    super(CelErrorCode.INTERNAL_ERROR, "Function '" + overloadId + "' failed");
  }
}
