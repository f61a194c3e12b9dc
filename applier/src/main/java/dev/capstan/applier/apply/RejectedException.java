package dev.capstan.applier.apply;

/** The API server rejected a write or dry-run of one object. */
public final class RejectedException extends Exception {

  private final Rejection rejection;

  public RejectedException(Rejection rejection) {
    super(rejection.reason(), null, false, false);
    this.rejection = rejection;
  }

  public Rejection rejection() {
    return rejection;
  }
}
