package dev.capstan.cli.migrate;

/** One step of an object's migration or rollback, in the order they are taken. */
enum Step {
  SUSPEND_FLUX("suspend the Flux object"),
  CREATE_TWIN("create the Capstan twin"),
  COPY_STATUS("copy the artifact to the twin's status"),
  HAND_OVER(
      "hand the inventory and the applied objects' fields from kustomize-controller to Capstan"),
  RESUME_TWIN("resume the twin"),
  WAIT_READY("wait until the twin is Ready"),
  DELETE_FLUX_CHART(
      "delete the HelmChart helm-controller made for it (the twin's HelmChart is Capstan's own)"),
  DELETE_FLUX("delete the Flux object with its finalizers removed, so that Flux prunes nothing"),
  SUSPEND_TWIN("suspend the Capstan twin"),
  CREATE_FLUX("re-create the Flux object from the twin"),
  HAND_BACK("hand the inventory and the applied objects' fields back to kustomize-controller"),
  RESUME_FLUX("resume the Flux object"),
  DELETE_TWIN("delete the twin, suspended, so that Capstan prunes nothing"),
  DELETE_TWIN_CHART(
      "delete the HelmChart Capstan made for the twin (helm-controller makes its own again)");

  final String says;

  Step(String says) {
    this.says = says;
  }
}
