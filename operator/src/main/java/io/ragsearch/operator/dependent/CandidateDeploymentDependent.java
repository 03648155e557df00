package io.ragsearch.operator.dependent;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.Matcher;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.manifest.CandidateObjects;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;

import java.util.Objects;

/**
 * The Deployment of a verification's candidate, while one is wanted. A candidate already running
 * the wanted version is left as it is: the tuning loop may change the rerank concurrency
 * meanwhile, and rolling the candidate for it would restart its checks.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class CandidateDeploymentDependent extends CRUDKubernetesDependentResource<Deployment, RagSearch> {

    public CandidateDeploymentDependent() {
        super(Deployment.class);
    }

    @Override
    protected Deployment desired(RagSearch primary, Context<RagSearch> context) {
        CandidateObjects.Candidate wanted = DesiredManifests.of(context).candidate();
        // Not wanted: JOSDK still asks which object this dependent is, to delete it.
        return wanted != null ? wanted.deployment() : new DeploymentBuilder().withNewMetadata()
                .withName(ObjectNames.candidate(primary.getMetadata().getName()))
                .withNamespace(primary.getMetadata().getNamespace()).endMetadata().build();
    }

    @Override
    public Matcher.Result<Deployment> match(Deployment actual, Deployment desired, RagSearch primary, Context<RagSearch> context) {
        String running = Manifests.version(actual);
        if (running != null && Objects.equals(running, Manifests.version(desired))) {
            return Matcher.Result.computed(true, desired);
        }
        return super.match(actual, desired, primary, context);
    }
}
