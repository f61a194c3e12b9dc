package dev.capstan.cli.migrate;

/** What becomes of one object. */
enum Outcome {
  MIGRATE("migrated to its Capstan twin"),
  CONTINUE("migration started before: continued"),
  SHARED("twin created, the Flux object kept and running: an object left with Flux uses it"),
  DONE("already migrated: nothing to do"),
  NOT_MIGRATED("not migrated"),
  BLOCKED("blocked"),
  ROLL_BACK("handed back to Flux"),
  ROLL_BACK_SHARED(
      "handed back to Flux, the twin kept running: an object left with Capstan uses it");

  final String says;

  Outcome(String says) {
    this.says = says;
  }
}
