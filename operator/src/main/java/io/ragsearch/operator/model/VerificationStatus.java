package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;

/** Where the verification of a new version stands, and the version not to try again. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VerificationStatus {
    public static final String VERIFYING = "Verifying";
    public static final String PROMOTED = "Promoted";
    public static final String HELD_BACK = "HeldBack";

    @Size(max = SchemaBounds.LABEL_VALUE)
    @JsonPropertyDescription("Verifying, Promoted or HeldBack.")
    public String state;

    @Size(max = SchemaBounds.LABEL_VALUE)
    @JsonPropertyDescription("The version (pod template digest, rerank concurrency left out) this state is about.")
    public String version;

    @Size(max = SchemaBounds.LABEL_VALUE)
    @JsonPropertyDescription("A version that failed its verification: not tried again until the spec changes.")
    public String heldBackVersion;

    @Size(max = SchemaBounds.STATUS_TEXT)
    @JsonPropertyDescription("When the candidate was created.")
    public String startedAt;

    @Size(max = SchemaBounds.STATUS_TEXT)
    @JsonPropertyDescription("When the verdict came.")
    public String finishedAt;

    @Size(max = SchemaBounds.OBJECT_NAME)
    @JsonPropertyDescription("The candidate pod the checks were started on.")
    public String candidatePod;

    @Min(0)
    @Max(86400000)
    @JsonPropertyDescription("How long the checks ran on the candidate, in milliseconds.")
    public Long checksMillis;

    @Min(0)
    @Max(100000)
    public Integer passed;

    @Min(0)
    @Max(100000)
    public Integer failed;

    @Size(max = SchemaBounds.LABEL_VALUE)
    @JsonPropertyDescription("How the last verification ended: Passed, VerificationFailed or VerificationTimedOut.")
    public String outcome;

    @Size(max = SchemaBounds.STATUS_TEXT)
    @JsonPropertyDescription("Why the version was held back: the failed checks as id: why, or the timeout.")
    public String reason;
}
