package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

/** The numbers behind the concurrency, as kubectl get -o yaml shows them. Sizes in bytes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RerankStatus {
    public static final String BASIS_NONE = "none";
    public static final String BASIS_MEASURED = "measured";
    public static final String BASIS_PREVIOUS = "previous-measurement";
    public static final String BASIS_FILE = "calibration-file";

    @JsonPropertyDescription("spec.rerank.concurrency as given (auto or N).")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String requested;
    @JsonPropertyDescription("The concurrency the pod template sets (RAGSEARCH_RERANK_CONCURRENCY).")
    public Integer effective;
    @JsonPropertyDescription("The concurrency the pods run now: effective, or once every pod took an in-place resize, the live bound they report (resize.concurrency).")
    public Integer running;
    @JsonPropertyDescription("max(1, min(byMemory, byCpu)), byCpu 8 without a CPU limit; absent before any measurement.")
    public Integer safe;
    public Long budgetBytes;
    public Long byMemory;
    @JsonPropertyDescription("Absent when there is no CPU limit (the formula then takes 8).")
    public Integer byCpu;
    @JsonPropertyDescription("none (no measurement yet: 1), measured (the current pods' own), previous-measurement (an earlier rollout's, same reranker, awaiting the new pods').")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String basis;
    public Long memoryLimitBytes;
    public Long cpuLimitMillis;
    public Integer headroomPercent;

    // The measurement.
    public Long residentBytes;
    public Long perRunBytes;
    public Integer intraOpThreads;
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String method;
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String measuredAt;
    @JsonPropertyDescription("Memory limit the measuring pod ran under.")
    public Long measuredUnderLimitBytes;
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String measuredBy;
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String rerankerDigest;
    @JsonPropertyDescription("The reranker as specified (builtin name, pvc path or url + sha256); a measurement is reused only for the same one.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String rerankerSource;
    @JsonPropertyDescription("Hash of what a calibration depends on (image, resources, reranker); pods carry it as a label.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String calibrationKey;
}
