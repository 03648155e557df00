package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.LifecycleBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.ragsearch.operator.model.PodSettings;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.spec.CheckedSpec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The pod-level settings of {@code spec.pod}: scheduling, identity, extra metadata, the drain delay. */
final class PodPlacement {
    /** Non-root user of the server image. */
    static final long RUN_AS_USER = 10001;

    private PodPlacement() {
    }

    static void apply(CheckedSpec spec, PodSpecBuilder pod) {
        PodSettings s = settings(spec);
        if (s.nodeSelector != null && !s.nodeSelector.isEmpty()) {
            pod.withNodeSelector(new LinkedHashMap<>(s.nodeSelector));
        }
        if (s.tolerations != null && !s.tolerations.isEmpty()) {
            pod.withTolerations(s.tolerations);
        }
        if (s.affinity != null) {
            pod.withAffinity(s.affinity);
        }
        pod.withTopologySpreadConstraints(spread(spec, s));
        if (s.priorityClassName != null && !s.priorityClassName.isBlank()) {
            pod.withPriorityClassName(s.priorityClassName);
        }
        if (s.imagePullSecrets != null && !s.imagePullSecrets.isEmpty()) {
            pod.withImagePullSecrets(s.imagePullSecrets);
        }
        pod.withTerminationGracePeriodSeconds(preStopDelaySeconds(spec) + shutdownSeconds(spec));
        pod.withSecurityContext(security(s));
    }

    /** Given constraints win; without any, replicas > 1 spread over nodes but still schedule on one. */
    private static List<TopologySpreadConstraint> spread(CheckedSpec spec, PodSettings s) {
        if (s.topologySpreadConstraints != null && !s.topologySpreadConstraints.isEmpty()) {
            return s.topologySpreadConstraints;
        }
        if (spec.replicas() <= 1) {
            return List.of();
        }
        return List.of(new TopologySpreadConstraintBuilder()
                .withMaxSkew(1).withTopologyKey("kubernetes.io/hostname").withWhenUnsatisfiable("ScheduleAnyway")
                .withNewLabelSelector().withMatchLabels(Labels.selector(spec.name())).endLabelSelector()
                .build());
    }

    /** OpenShift's restricted-v2 assigns the user from the namespace's range and refuses any other. */
    private static PodSecurityContext security(PodSettings s) {
        PodSecurityContextBuilder b = new PodSecurityContextBuilder().withRunAsNonRoot(true)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile();
        if (!Boolean.TRUE.equals(s.platformAssignsUser)) {
            b.withRunAsUser(RUN_AS_USER).withRunAsGroup(RUN_AS_USER).withFsGroup(RUN_AS_USER);
        }
        return b.build();
    }

    /**
     * The kubelet runs preStop before SIGTERM, while endpoint controllers remove the pod: sleeping
     * here keeps it serving until clients stop being sent to it. The image has coreutils' sleep.
     */
    static Lifecycle lifecycle(CheckedSpec spec) {
        long delay = preStopDelaySeconds(spec);
        if (delay == 0) {
            return null;
        }
        return new LifecycleBuilder().withNewPreStop().withNewExec().withCommand("sleep", Long.toString(delay))
                .endExec().endPreStop().build();
    }

    static long preStopDelaySeconds(CheckedSpec spec) {
        Integer d = settings(spec).preStopDelaySeconds;
        return d == null ? PodSettings.DEFAULT_PRE_STOP_DELAY_SECONDS : d;
    }

    static long shutdownSeconds(CheckedSpec spec) {
        Integer s = settings(spec).shutdownSeconds;
        return s == null ? PodSettings.DEFAULT_SHUTDOWN_SECONDS : s;
    }

    static Map<String, String> extraLabels(CheckedSpec spec) {
        Map<String, String> l = settings(spec).labels;
        return l == null ? Map.of() : l;
    }

    static Map<String, String> extraAnnotations(CheckedSpec spec) {
        Map<String, String> a = settings(spec).annotations;
        return a == null ? Map.of() : a;
    }

    private static PodSettings settings(CheckedSpec spec) {
        return spec.spec().pod == null ? new PodSettings() : spec.spec().pod;
    }
}
