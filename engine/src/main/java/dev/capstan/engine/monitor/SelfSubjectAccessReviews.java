package dev.capstan.engine.monitor;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Supplier;

/**
 * Answers {@link ReadAccess.Question}s with a SelfSubjectAccessReview made through a client that
 * impersonates the service account: every authenticated user may create one, so the engine needs no
 * right to review other users' access.
 */
final class SelfSubjectAccessReviews implements ReadAccess.Decider {

  @Override
  public boolean mayGet(ReadAccess.Question question, Supplier<KubernetesClient> client) {
    SelfSubjectAccessReview review =
        new SelfSubjectAccessReviewBuilder()
            .withNewSpec()
            .withNewResourceAttributes()
            .withVerb("get")
            .withGroup(question.group())
            .withResource(question.resource())
            .withNamespace(question.namespace().isEmpty() ? null : question.namespace())
            .endResourceAttributes()
            .endSpec()
            .build();
    SelfSubjectAccessReview answer =
        client.get().authorization().v1().selfSubjectAccessReview().create(review);
    return answer.getStatus() != null && Boolean.TRUE.equals(answer.getStatus().getAllowed());
  }
}
