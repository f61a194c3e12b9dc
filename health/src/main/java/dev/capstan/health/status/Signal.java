package dev.capstan.health.status;

/** What one piece of a status says about health, before the generic layer weighs the pieces. */
enum Signal {
  HEALTHY,
  PROGRESSING,
  FAILED;

  /** The status a signal stands for. */
  Status status() {
    return switch (this) {
      case HEALTHY -> Status.Current;
      case PROGRESSING -> Status.InProgress;
      case FAILED -> Status.Failed;
    };
  }
}
