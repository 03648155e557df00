package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.ragsearch.operator.dependent.AutoscalerDependent;
import io.ragsearch.operator.dependent.CandidateConfigMapDependent;
import io.ragsearch.operator.dependent.CandidateDeploymentDependent;
import io.ragsearch.operator.dependent.DisruptionBudgetDependent;
import io.ragsearch.operator.dependent.NetworkPolicyDependent;
import io.ragsearch.operator.dependent.OptionalObjectWanted;
import io.ragsearch.operator.dependent.ServerConfigMapDependent;
import io.ragsearch.operator.dependent.ServerDeploymentDependent;
import io.ragsearch.operator.dependent.ServerServiceDependent;
import io.ragsearch.operator.manifest.AdminAccess;
import io.ragsearch.operator.metrics.OperatorMetrics;
import io.ragsearch.operator.metrics.ReconcileTraces;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.PodAdminClient;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a RagSearch into its ConfigMap, Deployment and Service (and optional PodDisruptionBudget
 * and NetworkPolicy), and tunes the rerank concurrency from what the pods measured.
 *
 * <p>Each reconcile observes ({@link ClusterObserver}: every read, into one {@link Observation}),
 * decides ({@link Decider}: pure, into one {@link ReconcileDecision}) and acts
 * ({@link ReconcileActions}: every write). The dependents run only after the spec passed its checks
 * (explicit workflow invocation): an invalid spec must leave the running Deployment exactly as it was.
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

    private final ClusterObserver observer;
    private final ReconcileActions actions;
    private final Settings settings;
    private final Clock clock;
    private final OperatorMetrics metrics;
    private final ReconcileTraces traces;

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
        this.settings = settings;
        this.clock = Clock.systemUTC();
        CandidateChecks candidates = new CandidateChecks(podAdmin, settings.adminPort());
        PodResizeClient resizeApi = new PodResizeClient(client);
        this.observer = new ClusterObserver(client, podAdmin, settings.adminPort(), candidates, resizeApi, clock);
        this.actions = new ReconcileActions(client, candidates, new InPlaceResize(resizeApi, podAdmin, settings.adminPort()),
                new EventRecorder(client), metrics, settings);
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

    /** Observe, decide, act: every read first, then a decision free of I/O, then every write. */
    private UpdateControl<RagSearch> reconcileChecked(RagSearch resource, Context<RagSearch> context) {
        Observation seen = observer.observe(resource, context);
        ReconcileDecision decision = Decider.decide(seen, settings);
        return actions.act(seen, decision, context);
    }

    /**
     * A reconcile that threw (an unexpected exception: the API server refused a write, say) leaves
     * {@code ReconcileFailed} in the status, so {@code kubectl describe} tells what the log tells;
     * JOSDK retries as it would without it.
     */
    @Override
    public ErrorStatusUpdateControl<RagSearch> updateErrorStatus(RagSearch resource, Context<RagSearch> context, Exception e) {
        boolean lastAttempt = context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false);
        resource.setStatus(StatusComposer.failed(resource, e, lastAttempt, clock.instant()));
        return ErrorStatusUpdateControl.patchStatus(resource);
    }

    /**
     * The finalizer an earlier version added (JOSDK's default name). Deletion needs none: every
     * owned object carries an owner reference, so Kubernetes' garbage collector removes them,
     * and a RagSearch deleted while the operator is stopped or uninstalled is not left hanging.
     */
    static final String LEGACY_FINALIZER = "ragsearches.ragsearch.io/finalizer";
}
