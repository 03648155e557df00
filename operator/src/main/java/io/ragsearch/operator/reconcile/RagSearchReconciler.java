package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.ragsearch.operator.manifest.AdminAccess;
import io.ragsearch.operator.manifest.CalibrationKey;
import io.ragsearch.operator.dependent.CandidateConfigMapDependent;
import io.ragsearch.operator.dependent.CandidateDeploymentDependent;
import io.ragsearch.operator.dependent.DisruptionBudgetDependent;
import io.ragsearch.operator.manifest.ManifestFactory;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.dependent.NetworkPolicyDependent;
import io.ragsearch.operator.dependent.OptionalObjectWanted;
import io.ragsearch.operator.dependent.ServerConfigMapDependent;
import io.ragsearch.operator.dependent.ServerDeploymentDependent;
import io.ragsearch.operator.dependent.ServerServiceDependent;
import io.ragsearch.operator.metrics.OperatorMetrics;
import io.ragsearch.operator.podadmin.PodAdminClient;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.manifest.CandidateObjects;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a RagSearch into its ConfigMap, Deployment and Service (and optional PodDisruptionBudget
 * and NetworkPolicy), and tunes the rerank concurrency from what the pods measured.
 *
 * <p>The dependents run only after the spec passed its checks (explicit workflow invocation): an
 * invalid spec must leave the running Deployment exactly as it was.
 */
@Workflow(explicitInvocation = true, dependents = {
        @Dependent(name = "config", type = ServerConfigMapDependent.class),
        @Dependent(name = "deployment", type = ServerDeploymentDependent.class),
        @Dependent(name = "service", type = ServerServiceDependent.class),
        @Dependent(name = "disruption-budget", type = DisruptionBudgetDependent.class,
                reconcilePrecondition = OptionalObjectWanted.DisruptionBudget.class),
        @Dependent(name = "network-policy", type = NetworkPolicyDependent.class,
                reconcilePrecondition = OptionalObjectWanted.NetworkPolicy.class),
        @Dependent(name = "candidate-config", type = CandidateConfigMapDependent.class,
                reconcilePrecondition = OptionalObjectWanted.Candidate.class),
        @Dependent(name = "candidate-deployment", type = CandidateDeploymentDependent.class,
                reconcilePrecondition = OptionalObjectWanted.Candidate.class)})
@ControllerConfiguration(name = "ragsearch")
public class RagSearchReconciler implements Reconciler<RagSearch> {

    /**
     * How often to look again while something is pending (pods starting, a secret missing) and
     * once settled; the admin port where pods answer /calibration; who may reach it under a NetworkPolicy.
     */
    public record Settings(Duration pending, Duration settled, int adminPort, AdminAccess adminAccess) {
        public Settings(Duration pending, Duration settled, int adminPort) {
            this(pending, settled, adminPort, AdminAccess.UNKNOWN);
        }

        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(10), Duration.ofMinutes(5), PodLayout.ADMIN_PORT);
        }

        public Settings withAdminAccess(AdminAccess access) {
            return new Settings(pending, settled, adminPort, access);
        }
    }

    private final KubernetesClient client;
    private final CalibrationReader calibrations;
    private final DatabaseReader databases;
    private final EmbeddingReader embeddings;
    private final ReferencedSecrets secrets;
    private final StatusComposer statuses;
    private final CandidateChecks candidates;
    private final Settings settings;
    private final Clock clock;
    private final OperatorMetrics metrics;

    public RagSearchReconciler(KubernetesClient client, PodAdminClient podAdmin,
                               Settings settings) {
        this(client, podAdmin, settings, new OperatorMetrics());
    }

    public RagSearchReconciler(KubernetesClient client, PodAdminClient podAdmin,
                               Settings settings, OperatorMetrics metrics) {
        this.metrics = metrics;
        this.client = client;
        this.calibrations = new CalibrationReader(podAdmin, settings.adminPort());
        this.databases = new DatabaseReader(podAdmin, settings.adminPort());
        this.embeddings = new EmbeddingReader(podAdmin, settings.adminPort());
        this.secrets = new ReferencedSecrets(client);
        this.statuses = new StatusComposer(new EventRecorder(client));
        this.settings = settings;
        this.clock = Clock.systemUTC();
        this.candidates = new CandidateChecks(podAdmin, settings.adminPort());
    }

    @Override
    public List<EventSource<?, RagSearch>> prepareEventSources(EventSourceContext<RagSearch> context) {
        // Pods belong to ReplicaSets, not to the RagSearch: map them back by the instance label.
        var pods = InformerEventSourceConfiguration.from(Pod.class, RagSearch.class)
                .withLabelSelector(Labels.MANAGED_SELECTOR)
                .withSecondaryToPrimaryMapper(pod -> {
                    Map<String, String> labels = pod.getMetadata().getLabels();
                    String instance = labels == null ? null : labels.get(Labels.LABEL_INSTANCE);
                    return instance == null ? Set.of() : Set.of(new ResourceID(instance, pod.getMetadata().getNamespace()));
                })
                .build();
        return List.of(new InformerEventSource<>(pods, context));
    }

    @Override
    public UpdateControl<RagSearch> reconcile(RagSearch resource, Context<RagSearch> context) {
        long t0 = System.nanoTime();
        String outcome = "error";
        try {
            UpdateControl<RagSearch> control = reconcileChecked(resource, context);
            outcome = Conditions.isTrue(resource.getStatus().conditions, Conditions.INVALID_SPEC) ? "invalid" : "valid";
            return control;
        } finally {
            metrics.reconciled(outcome, Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    private UpdateControl<RagSearch> reconcileChecked(RagSearch resource, Context<RagSearch> context) {
        dropLegacyFinalizer(resource);
        RagSearchStatus old = resource.getStatus();
        SpecCheck.Result checked = SpecCheck.check(resource, new ClusterReferenceLookup(client));
        if (!checked.valid()) {
            resource.setStatus(statuses.invalid(resource, old, checked.problems(), clock.instant()));
            RagSearchStatus s = resource.getStatus();
            metrics.decided(resource.getMetadata().getNamespace(), resource.getMetadata().getName(), new OperatorMetrics.Decision(
                    s.rerank == null || s.rerank.effective == null ? 1 : s.rerank.effective, s.rerank == null ? null : s.rerank.safe,
                    s.replicas == null ? 0 : s.replicas, s.readyReplicas == null ? 0 : s.readyReplicas, false));
            // A missing Secret or ConfigMap may appear without the RagSearch changing: look again.
            return UpdateControl.patchStatus(resource).rescheduleAfter(settings.pending());
        }
        CheckedSpec spec = checked.spec().orElseThrow();
        RolloutPods pods = new RolloutPods(context.getSecondaryResources(Pod.class));
        String key = CalibrationKey.of(spec);
        RerankPlanner.Plan plan = RerankPlanner.plan(spec, key, old == null ? null : old.rerank,
                calibrations.read(pods.readyWith(Labels.CALIBRATION_KEY, key)));
        Manifests built = ManifestFactory.build(spec, plan.effective().concurrency(), key,
                secrets.digest(spec.namespace(), resource.getSpec()), settings.adminAccess());
        // With spec.verification a new version waits on its candidate: the serving objects may stay as they run.
        PromotionPlanner.Decision promotion = promote(spec, built, pods, old == null ? null : old.verification, context);
        Manifests manifests = desired(spec, built, promotion, context);
        context.managedWorkflowAndDependentResourceContext().put(Manifests.CONTEXT_KEY, manifests);
        context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow()
                .throwAggregateExceptionIfErrorsPresent();

        int ready = pods.readyOfTemplate(manifests.configHash());
        List<DatabaseReader.PodDatabase> database = resource.getSpec().database == null ? List.of()
                : databases.read(pods.readyWith(Labels.LABEL_INSTANCE, spec.name()));
        List<EmbeddingReader.PodEmbedding> embedding = embeddings.read(pods.notReadyWith(Labels.LABEL_INSTANCE, spec.name()));
        RagSearchStatus next = statuses.valid(resource, old, spec, plan, ready, database, embedding, clock.instant());
        statuses.verification(resource, next, promotion, clock.instant());
        resource.setStatus(next);
        metrics.decided(spec.namespace(), spec.name(), new OperatorMetrics.Decision(plan.effective().concurrency(),
                plan.safe() == null ? null : plan.safe().safe(), spec.replicas(), ready, true));
        // While a pod's database is down, look again soon: the status must show the outage's end.
        boolean databaseDown = database.stream().anyMatch(d -> !d.state().connected());
        boolean settled = !databaseDown && !promotion.pending() && ready >= spec.replicas() && (!spec.reranks() || plan.measuredByCurrentPods());
        return UpdateControl.patchStatus(resource).rescheduleAfter(settled ? settings.settled() : settings.pending());
    }

    /** Reads the running Deployment and the candidate pod, decides, and starts the candidate's checks if the decision says so. */
    private PromotionPlanner.Decision promote(CheckedSpec spec, Manifests built, RolloutPods pods, VerificationStatus previous,
                                              Context<RagSearch> context) {
        Deployment running = owned(context, Deployment.class, spec.name());
        PromotionPlanner.CandidatePod candidate = spec.verification() == null ? null : candidates.read(pods, built.version());
        PromotionPlanner.Decision decision = PromotionPlanner.decide(new PromotionPlanner.Inputs(spec.name(), spec.verification(),
                built.version(), running == null ? PromotionPlanner.Running.NONE
                : new PromotionPlanner.Running(true, Manifests.version(running)), previous, candidate,
                !pods.readyWith(Labels.LABEL_NAME, Labels.SERVING_NAME).isEmpty(), clock.instant()));
        return candidates.start(decision, pods, spec, built.version());
    }

    /** What the dependents apply: the spec's manifests or the running template held, and the candidate while one is wanted. */
    private static Manifests desired(CheckedSpec spec, Manifests built, PromotionPlanner.Decision decision, Context<RagSearch> context) {
        Manifests serving = decision.serving() == PromotionPlanner.Serving.SPEC ? built
                : built.holding(owned(context, ConfigMap.class, ObjectNames.configMap(spec.name())),
                owned(context, Deployment.class, spec.name()));
        return decision.candidateWanted() ? serving.withCandidate(CandidateObjects.build(spec, built)) : serving;
    }

    /** An owned object as the dependents' informers see it (the same cache they apply against). */
    private static <T extends HasMetadata> T owned(Context<RagSearch> context, Class<T> kind, String name) {
        return context.getSecondaryResourcesAsStream(kind).filter(o -> name.equals(o.getMetadata().getName())).findFirst().orElse(null);
    }

    /**
     * The finalizer an earlier version added (JOSDK's default name). Deletion needs none: every
     * owned object carries an owner reference, so Kubernetes' garbage collector removes them,
     * and a RagSearch deleted while the operator is stopped or uninstalled is not left hanging.
     */
    static final String LEGACY_FINALIZER = "ragsearches.ragsearch.io/finalizer";

    private void dropLegacyFinalizer(RagSearch resource) {
        if (resource.getMetadata().getFinalizers() != null && resource.getMetadata().getFinalizers().contains(LEGACY_FINALIZER)) {
            client.resource(resource).edit(r -> {
                r.getMetadata().getFinalizers().remove(LEGACY_FINALIZER);
                return r;
            });
        }
    }
}
