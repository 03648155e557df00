package io.ragsearch.operator.reconcile;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.ragsearch.operator.metrics.ReconcileTraces;

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
import io.ragsearch.operator.dependent.AutoscalerDependent;
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
import io.ragsearch.operator.model.ResizeStatus;
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
        @Dependent(name = "autoscaler", type = AutoscalerDependent.class,
                reconcilePrecondition = OptionalObjectWanted.Autoscaler.class),
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
    private final ReconcileTraces traces;
    private final InPlaceResize resizes;
    private final EventRecorder events;

    public RagSearchReconciler(KubernetesClient client, PodAdminClient podAdmin,
                               Settings settings) {
        this(client, podAdmin, settings, new OperatorMetrics());
    }

    public RagSearchReconciler(KubernetesClient client, PodAdminClient podAdmin,
                               Settings settings, OperatorMetrics metrics) {
        this(client, podAdmin, settings, metrics, ReconcileTraces.OFF);
    }

    public RagSearchReconciler(KubernetesClient client, PodAdminClient podAdmin,
                               Settings settings, OperatorMetrics metrics, ReconcileTraces traces) {
        this.metrics = metrics;
        this.traces = traces;
        this.client = client;
        this.calibrations = new CalibrationReader(podAdmin, settings.adminPort());
        this.databases = new DatabaseReader(podAdmin, settings.adminPort());
        this.embeddings = new EmbeddingReader(podAdmin, settings.adminPort());
        this.secrets = new ReferencedSecrets(client);
        this.statuses = new StatusComposer(new EventRecorder(client));
        this.settings = settings;
        this.clock = Clock.systemUTC();
        this.candidates = new CandidateChecks(podAdmin, settings.adminPort());
        this.resizes = new InPlaceResize(new PodResizeClient(client), podAdmin, settings.adminPort());
        this.events = new EventRecorder(client);
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
        Throwable failure = null;
        Span span = traces.begin(resource.getMetadata().getNamespace(), resource.getMetadata().getName(),
                resource.getMetadata().getGeneration());
        try (Scope scope = span.makeCurrent()) {
            UpdateControl<RagSearch> control = reconcileChecked(resource, context);
            outcome = Conditions.isTrue(resource.getStatus().conditions, Conditions.INVALID_SPEC) ? "invalid" : "valid";
            return control;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            metrics.reconciled(outcome, Duration.ofNanos(System.nanoTime() - t0));
            ReconcileTraces.end(span, outcome, failure);
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
                    s.rerank == null || s.rerank.running == null ? 1 : s.rerank.running, s.rerank == null ? null : s.rerank.safe,
                    s.replicas == null ? 0 : s.replicas, s.readyReplicas == null ? 0 : s.readyReplicas, false));
            // A missing Secret or ConfigMap may appear without the RagSearch changing: look again.
            return UpdateControl.patchStatus(resource).rescheduleAfter(settings.pending());
        }
        CheckedSpec spec = checked.spec().orElseThrow();
        RolloutPods pods = new RolloutPods(context.getSecondaryResources(Pod.class));
        String secretsDigest = secrets.digest(spec.namespace(), resource.getSpec());
        // A change of limits alone is resized in place where the cluster can: the template then keeps its limits (a roll otherwise).
        Deployment running = owned(context, Deployment.class, spec.name());
        CheckedSpec atTemplate = InPlaceResize.atTemplateLimits(spec, running);
        ResizePlanner.Decision resize = resizeDecision(spec, atTemplate, running, old, pods, secretsDigest);
        CheckedSpec rendered = resize.inPlace() ? atTemplate : spec;
        String key = CalibrationKey.of(rendered);
        RerankPlanner.Plan plan = RerankPlanner.plan(rendered, key, old == null ? null : old.rerank,
                calibrations.read(pods.readyWith(Labels.CALIBRATION_KEY, key)));
        Manifests built = ManifestFactory.build(rendered, plan.effective().concurrency(), key, secretsDigest, settings.adminAccess());
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
        boolean resizing = resizePods(resource, old, next, spec, rendered, resize, pods, manifests.configHash());
        // What the pods run, which after an in-place resize is not what their template says: the Concurrency column, the gauge.
        int podsRun = InPlaceResize.running(next.resize, plan.effective().concurrency());
        next.rerank.running = podsRun;
        resource.setStatus(next);
        metrics.decided(spec.namespace(), spec.name(), new OperatorMetrics.Decision(podsRun,
                plan.safe() == null ? null : plan.safe().safe(), spec.replicas(), ready, true));
        // While a pod's database is down, look again soon: the status must show the outage's end.
        boolean databaseDown = database.stream().anyMatch(d -> !d.state().connected());
        boolean settled = !resizing && !databaseDown && !promotion.pending() && ready >= spec.replicas()
                && (!spec.reranks() || plan.measuredByCurrentPods());
        Duration again = settled ? settings.settled() : resizing && settings.pending().compareTo(InPlaceResize.LOOK_AGAIN) > 0
                ? InPlaceResize.LOOK_AGAIN : settings.pending();
        return UpdateControl.patchStatus(resource).rescheduleAfter(again);
    }

    /**
     * In place or roll (ResizePlanner) when the spec's limits differ from the running template's:
     * in place needs the template rendered under its own limits to be the running one (nothing
     * else changed) and its rollout finished. Limits back at the template's while its pods run at
     * others (resized in place earlier) are in place too.
     */
    private ResizePlanner.Decision resizeDecision(CheckedSpec spec, CheckedSpec atTemplate, Deployment running, RagSearchStatus old,
                                                  RolloutPods pods, String secretsDigest) {
        var annotations = running == null ? null : running.getSpec().getTemplate().getMetadata().getAnnotations();
        String runningHash = annotations == null ? null : annotations.get(Labels.CONFIG_HASH);
        List<Pod> serving = pods.pods().stream().filter(InPlaceResize::serving).toList();
        boolean rolloutComplete = serving.stream().allMatch(p -> InPlaceResize.ofTemplate(p, runningHash));
        boolean podsAtOtherLimits = serving.stream().filter(p -> InPlaceResize.ofTemplate(p, runningHash))
                .anyMatch(p -> !InPlaceResize.limits(spec).equals(InPlaceResize.podLimits(p)))
                || InPlaceResize.unfinished(old == null ? null : old.resize, spec.memoryBytes());
        boolean onlyLimits = true;
        var measured = old == null ? null : old.rerank;
        if (atTemplate != spec) {
            String key = CalibrationKey.of(atTemplate);
            RerankPlanner.Plan plan = RerankPlanner.plan(atTemplate, key, measured, calibrations.read(pods.readyWith(Labels.CALIBRATION_KEY, key)));
            Manifests asRunning = ManifestFactory.build(atTemplate, plan.effective().concurrency(), key, secretsDigest, settings.adminAccess());
            onlyLimits = asRunning.configHash().equals(runningHash);
        }
        boolean sameTarget = old != null && InPlaceResize.sameTarget(old.resize, spec.memoryBytes(), spec.cpuMillis());
        String refused = sameTarget ? old.resize.refused : null;
        return ResizePlanner.decide(new ResizePlanner.Inputs(InPlaceResize.limits(spec), running == null ? null : InPlaceResize.limits(atTemplate),
                onlyLimits, atTemplate != spec && onlyLimits ? resizes.support() : new ResizePlanner.Support(false, "-"), refused,
                measured == null ? null : measured.residentBytes, measured == null ? null : measured.perRunBytes, spec.headroomPercent(),
                rolloutComplete, podsAtOtherLimits));
    }

    /**
     * Moves the pods of the current template one step towards the spec's limits when they are
     * resized in place, and writes status.resize (an event when the decision is new).
     *
     * @return whether pods are still on their way (look again soon)
     */
    private boolean resizePods(RagSearch resource, RagSearchStatus old, RagSearchStatus next, CheckedSpec spec, CheckedSpec rendered,
                               ResizePlanner.Decision resize, RolloutPods pods, String configHash) {
        ResizeStatus previous = old == null ? null : old.resize;
        if (resize.mode() == ResizePlanner.Mode.UNCHANGED) {
            next.resize = previous;
            return false;
        }
        InPlaceResize.Progress progress = resize.inPlace()
                ? resizes.step(spec, pods.pods().stream().filter(p -> InPlaceResize.ofTemplate(p, configHash)).toList()) : null;
        next.resize = InPlaceResize.status(previous, resize, spec, rendered, progress,
                InPlaceResize.specWrittenAt(resource, clock.instant()));
        boolean newDecision = previous == null || !java.util.Objects.equals(previous.reason, next.resize.reason)
                || !InPlaceResize.sameTarget(previous, next.resize.memoryLimitBytes, next.resize.cpuLimitMillis);
        if (newDecision) {
            if (resize.inPlace() || ResizePlanner.REASON_OTHER_CHANGES.equals(resize.reason())
                    || ResizePlanner.REASON_ROLLOUT.equals(resize.reason())) {
                events.normal(resource, resize.reason(), resize.message());
            } else {
                events.warning(resource, resize.reason(), resize.message());
            }
        }
        if (progress != null && progress.refused() != null && (previous == null || previous.refused == null)) {
            events.warning(resource, ResizePlanner.REASON_REFUSED, "the cluster refused an in-place resize (" + progress.refused()
                    + "): the pods roll with the new limits");
        }
        if (next.resize.retunedAt != null && (previous == null || !next.resize.retunedAt.equals(previous.retunedAt))) {
            events.normal(resource, "Retuned", "every pod runs at memory " + (spec.memoryBytes() >> 20) + " MiB with rerank concurrency "
                    + next.resize.concurrency + ", " + next.resize.secondsToRetune + " s after the spec asked for it");
        }
        return progress != null && (progress.pending() || progress.refused() != null);
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
