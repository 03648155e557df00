package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;

import java.util.List;
import java.util.Map;

/** Scheduling and pod-level settings a platform team sets on every workload. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSettings {
    public static final int DEFAULT_PRE_STOP_DELAY_SECONDS = 5;
    /** Rerank runs finish (queue timeout 10 s, one run a few seconds) before the kill, after the preStop delay. */
    public static final int DEFAULT_SHUTDOWN_SECONDS = 30;

    @JsonPropertyDescription("Node labels the pods must be scheduled on.")
    public Map<String, String> nodeSelector;

    @Size(max = SchemaBounds.POD_LIST)
    @JsonPropertyDescription("Tolerations of the pods (e.g. for dedicated nodes).")
    public List<Toleration> tolerations;

    @JsonPropertyDescription("Node and pod (anti-)affinity of the pods.")
    public Affinity affinity;

    @Size(max = SchemaBounds.POD_LIST)
    @JsonPropertyDescription("Topology spread of the pods. Absent with replicas > 1: spread across nodes "
            + "(kubernetes.io/hostname, maxSkew 1, ScheduleAnyway).")
    public List<TopologySpreadConstraint> topologySpreadConstraints;

    @Size(max = SchemaBounds.OBJECT_NAME)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("PriorityClass of the pods.")
    public String priorityClassName;

    @Size(max = SchemaBounds.POD_LIST)
    @JsonPropertyDescription("Secrets used to pull the image (and the init container's).")
    public List<LocalObjectReference> imagePullSecrets;

    @JsonPropertyDescription("Extra labels on the pods (not the operator's own app.kubernetes.io/ and ragsearch.io/ keys).")
    public Map<String, String> labels;

    @JsonPropertyDescription("Extra annotations on the pods (not the operator's own ragsearch.io/ keys).")
    public Map<String, String> annotations;

    @Min(0)
    @Max(SchemaBounds.PRE_STOP_DELAY_MAX_SECONDS)
    @JsonPropertyDescription("Seconds a stopping pod keeps serving after it left the endpoints (preStop), "
            + "so clients are not sent to it meanwhile (default 5).")
    public Integer preStopDelaySeconds;

    @Min(1)
    @Max(SchemaBounds.SHUTDOWN_MAX_SECONDS)
    @JsonPropertyDescription("Seconds a stopping server has after SIGTERM (which comes after the preStop delay) to "
            + "finish the searches and rerank runs it holds before it is killed (default 30). The pods' "
            + "terminationGracePeriodSeconds is preStopDelaySeconds + shutdownSeconds.")
    public Integer shutdownSeconds;

    @JsonPropertyDescription("true on platforms that assign the user id (OpenShift restricted-v2): the pods "
            + "set runAsNonRoot but no runAsUser, runAsGroup or fsGroup.")
    public Boolean platformAssignsUser;
}
