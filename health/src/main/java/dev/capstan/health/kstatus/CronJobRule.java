package dev.capstan.health.kstatus;

import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * batch/CronJob. kstatus calls every CronJob Current: the object is a schedule, and a run that
 * failed does not make the schedule any less in force, nor would waiting on it help. Capstan keeps
 * Current, but says so when the last run did not succeed, so that a user watching {@code Healthy}
 * learns of it: no Job of the CronJob is running, and the last successful completion ({@code
 * status.lastSuccessfulTime}) is older than the last schedule ({@code status.lastScheduleTime}), or
 * there is none. The note is a reason on the Current status ({@link #LAST_JOB_FAILED}), which
 * aggregates list as notes. The times are read leniently, as kstatus reads none of them: a field of
 * another type or an unparsable time gives no note rather than an Unknown CronJob.
 */
final class CronJobRule {
  /** The reason a Current CronJob carries when its last Job did not succeed. */
  static final String LAST_JOB_FAILED = "LastJobFailed";

  private static final ResourceStatus ALWAYS_READY =
      ResourceStatus.current("Resource is always ready");

  private CronJobRule() {}

  static ResourceStatus evaluate(ObjectView cronJob) {
    if (!(cronJob.object().get("status") instanceof Map<?, ?> status)
        || (status.get("active") instanceof List<?> active && !active.isEmpty())) {
      return ALWAYS_READY;
    }
    Instant scheduled = time(status.get("lastScheduleTime"));
    if (scheduled == null) {
      return ALWAYS_READY;
    }
    Instant succeeded = time(status.get("lastSuccessfulTime"));
    if (succeeded != null && !succeeded.isBefore(scheduled)) {
      return ALWAYS_READY;
    }
    return ResourceStatus.currentWithNote(
        LAST_JOB_FAILED,
        "Resource is always ready, but its last Job, scheduled at "
            + scheduled
            + ", did not complete successfully ("
            + (succeeded == null ? "no successful run recorded" : "last success at " + succeeded)
            + ")");
  }

  /**
   * An RFC 3339 time as the API server writes it, or null (absent, of another type, unparsable).
   */
  private static Instant time(Object value) {
    if (!(value instanceof String text) || text.length() > 64) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException notATime) {
      return null;
    }
  }
}
