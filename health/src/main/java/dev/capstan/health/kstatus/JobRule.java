package dev.capstan.health.kstatus;

import dev.capstan.health.status.Condition;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/** batch/Job (kstatus): Complete or Failed decide; a started Job counts as Current. */
final class JobRule {
  private JobRule() {}

  static ResourceStatus evaluate(ObjectView job) {
    long parallelism = job.integer(1, "spec", "parallelism");
    long completions = job.integer(parallelism, "spec", "completions");
    long succeeded = job.integer(0, "status", "succeeded");
    long failed = job.integer(0, "status", "failed");
    long active = job.integer(0, "status", "active");
    boolean suspend = job.isTrue("spec", "suspend");
    for (Condition c : job.conditions()) {
      if (c.is("Complete", "True")) {
        return ResourceStatus.current("Job Completed. succeeded: " + succeeded + "/" + completions);
      }
      if (c.is("Failed", "True")) {
        return ResourceStatus.failed(
            "JobFailed", "Job Failed. failed: " + failed + "/" + completions);
      }
      if (c.is("Suspended", "True") && suspend) {
        return ResourceStatus.current("Job is suspended");
      }
    }
    if (!job.has("status", "startTime")) {
      return ResourceStatus.inProgress("JobNotStarted", "Job not started");
    }
    return ResourceStatus.current(
        "Job in progress. success:" + succeeded + ", active: " + active + ", failed: " + failed);
  }
}
