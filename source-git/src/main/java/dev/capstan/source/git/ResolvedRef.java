package dev.capstan.source.git;

import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A ref resolved against the remote.
 *
 * @param fetchRef the full ref name to fetch (e.g. {@code refs/heads/main}), or null when only a
 *     commit id is known and every branch must be fetched to find it
 * @param objectId what the remote ref points at (a commit, or an annotated tag when the remote did
 *     not advertise the peeled id); compared with the cache to skip unchanged fetches
 * @param revisionName the part before {@code @sha1:}, or null for a bare {@code sha1:<id>}
 * @param shallow whether a depth-1 fetch is enough to get the commit
 * @param advertised what the remote ref itself points at (an annotated tag's tag object), or null
 *     for a bare commit id
 */
public record ResolvedRef(
    String fetchRef, ObjectId objectId, String revisionName, boolean shallow, ObjectId advertised) {

  ResolvedRef(String fetchRef, ObjectId objectId, String revisionName, boolean shallow) {
    this(fetchRef, objectId, revisionName, shallow, null);
  }

  /** Whether the ref is a tag, whose tag object {@code spec.verify}'s Tag modes check. */
  public boolean isTag() {
    return fetchRef != null && fetchRef.startsWith(Constants.R_TAGS) && advertised != null;
  }

  /** The revision string for the commit that {@link #objectId()} peels to. */
  String revision(ObjectId commit) {
    String sha = "sha1:" + commit.name();
    return revisionName == null ? sha : revisionName + "@" + sha;
  }
}
