package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

import java.util.ArrayList;
import java.util.List;

/** What a platform team asks for. Field descriptions end up in the CRD schema (kubectl explain). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RagSearchSpec {

    @Required
    @Size(max = SchemaBounds.IMAGE)
    @JsonPropertyDescription("Search server image; its entrypoint runs the ragsearch-server jar.")
    public String image;

    @Min(0)
    @Max(SchemaBounds.REPLICAS)
    @SpecReplicas
    // Defaulted by the API server, as a Deployment's is: an autoscaler reads an absent spec.replicas
    // through /scale as 0 and takes the target for scaled to zero ("scaling is disabled").
    @Default("1")
    @JsonPropertyDescription("Number of search server pods (default 1; an autoscaler raises it to its minReplicas). The scale "
            + "subresource (kubectl scale, a HorizontalPodAutoscaler, KEDA) sets it; the operator writes the Deployment's replicas from it.")
    public Integer replicas;

    @JsonPropertyDescription("Creates a HorizontalPodAutoscaler for this RagSearch when set: it moves spec.replicas "
            + "between minReplicas and maxReplicas on the pods' CPU and/or memory use (the cluster needs the resource metrics API).")
    public Autoscaling autoscaling;

    @Required
    @JsonPropertyDescription("Memory and CPU of each pod. The memory limit is also the request.")
    public Resources resources;

    @JsonPropertyDescription("Embedding and reranker models; built-in defaults when absent.")
    public Models models;

    @Required
    @Size(min = 1, max = SchemaBounds.PROJECTS)
    @JsonPropertyDescription("The document collections agents can search; names are unique (a list keyed on name).")
    public List<Project> projects = new ArrayList<>();

    @JsonPropertyDescription("PostgreSQL holding the corpus record, for projects with source.database.")
    public Database database;

    @JsonPropertyDescription("Rerank concurrency: auto (computed from the pods' measurement) or a fixed number.")
    public Rerank rerank;

    @JsonPropertyDescription("Default relevance gate of every project.")
    public Gate gate;

    @JsonPropertyDescription("Who may call the MCP port: a static bearer token, or JWTs with access per project (docs/security.md).")
    public Auth auth;

    @Min(SchemaBounds.STARTUP_TIMEOUT_MIN_SECONDS)
    @Max(SchemaBounds.STARTUP_TIMEOUT_MAX_SECONDS)
    @JsonPropertyDescription("Time a pod may take to load its models and build its lexical indexes before it is restarted (default 600). "
            + "Article embedding and calibration follow behind readiness and are not counted: a first start of any corpus size finishes.")
    public Integer startupTimeoutSeconds;

    @JsonPropertyDescription("Creates a PodDisruptionBudget when set.")
    public DisruptionBudget podDisruptionBudget;

    @JsonPropertyDescription("Scheduling and pod-level settings: node selector, tolerations, affinity, spread, "
            + "priority class, pull secrets, extra labels and annotations, preStop delay.")
    public PodSettings pod;

    @JsonPropertyDescription("Creates a NetworkPolicy when set.")
    public NetworkAccess networkPolicy;

    @JsonPropertyDescription("Verify a new version (image, models, gate, projects, resources) with a checks file before it "
            + "serves: a candidate pod next to the running ones, promoted only on a pass.")
    public VerificationSpec verification;

    @JsonPropertyDescription("Keeps passage vectors of directory and ConfigMap projects on this claim (ReadWriteMany for "
            + "several replicas), so a new pod embeds only what changed. Without it each pod keeps them in its /tmp volume: "
            + "a restarted container reuses them, a new pod embeds its corpus once at start. Database projects read the "
            + "vectors stored by ingest and need no cache.")
    public PvcModel vectorCache;

    @JsonPropertyDescription("Sends the pods' traces (tool calls, searches and their stages) to an OpenTelemetry collector.")
    public Telemetry telemetry;
}
