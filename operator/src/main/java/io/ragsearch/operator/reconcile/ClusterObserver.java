package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.podadmin.PodAdminClient;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The observe step of a reconcile: every read, from the API server, the informers' caches and the
 * pods' admin ports, gathered into one {@link Observation} before anything is decided. It writes
 * nothing (the pod readers cache what does not change, a calibration by pod UID).
 */
final class ClusterObserver {
    private final ClusterReferenceLookup references;
    private final ReferencedSecrets secrets;
    private final CalibrationReader calibrations;
    private final DatabaseReader databases;
    private final EmbeddingReader embeddings;
    private final CandidateChecks candidates;
    private final PodResizeClient resizeApi;
    private final Clock clock;

    ClusterObserver(KubernetesClient client, PodAdminClient podAdmin, int adminPort, CandidateChecks candidates,
                    PodResizeClient resizeApi, Clock clock) {
        this.references = new ClusterReferenceLookup(client);
        this.secrets = new ReferencedSecrets(client);
        this.calibrations = new CalibrationReader(podAdmin, adminPort);
        this.databases = new DatabaseReader(podAdmin, adminPort);
        this.embeddings = new EmbeddingReader(podAdmin, adminPort);
        this.candidates = candidates;
        this.resizeApi = resizeApi;
        this.clock = clock;
    }

    Observation observe(RagSearch resource, Context<RagSearch> context) {
        SpecCheck.Result checked = SpecCheck.check(resource, references);
        if (!checked.valid()) {
            return new Observation(resource, clock.instant(), checked, null);
        }
        CheckedSpec spec = checked.spec().orElseThrow();
        RolloutPods pods = new RolloutPods(context.getSecondaryResources(Pod.class));
        // The owned objects as the dependents' informers see them (the same cache they apply against).
        Deployment running = owned(context, Deployment.class, spec.name());
        ConfigMap runningConfig = owned(context, ConfigMap.class, ObjectNames.configMap(spec.name()));
        CheckedSpec atTemplate = InPlaceResize.atTemplateLimits(spec, running);
        Map<String, List<RerankPlanner.PodMeasurement>> measured = new LinkedHashMap<>();
        for (CheckedSpec under : atTemplate == spec ? List.of(spec) : List.of(spec, atTemplate)) {
            measured.put(under.calibrationKey(), calibrations.read(pods.readyWith(Labels.CALIBRATION_KEY, under.calibrationKey())));
        }
        var cluster = new Observation.Cluster(spec, atTemplate, pods, running, runningConfig,
                secrets.digest(spec.namespace(), resource.getSpec()), Map.copyOf(measured),
                atTemplate == spec ? null : resizeApi.support(),
                resource.getSpec().database == null ? List.of() : databases.read(pods.readyWith(Labels.LABEL_INSTANCE, spec.name())),
                embeddings.read(pods.notReadyWith(Labels.LABEL_INSTANCE, spec.name())),
                spec.verification() == null ? Map.of() : candidates.read(pods));
        return new Observation(resource, clock.instant(), checked, cluster);
    }

    private static <T extends HasMetadata> T owned(Context<RagSearch> context, Class<T> kind, String name) {
        return context.getSecondaryResourcesAsStream(kind).filter(o -> name.equals(o.getMetadata().getName())).findFirst().orElse(null);
    }
}
