package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.ragsearch.contract.settings.Bounds;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Rerank {
    @ValidationRule(value = "type(self) == int ? self >= 1 : self == 'auto'",
            message = "concurrency is auto or a whole number of at least 1")
    @Size(max = 8)
    @JsonPropertyDescription("auto (default): the safe value computed from the pods' own measurement. "
            + "A number N: at most N, cut to the safe value unless force is true.")
    public IntOrString concurrency;

    @Min(0)
    @Max(SchemaBounds.HEADROOM_PERCENT_MAX)
    @JsonPropertyDescription("Share of the memory limit kept free (default 10).")
    public Integer headroomPercent;

    @JsonPropertyDescription("Expert opt-out: apply a fixed concurrency even above the safe value.")
    public Boolean force;

    @Min(1)
    @Max(Bounds.INTRA_OP_THREADS_MAX)
    @JsonPropertyDescription("ONNX Runtime threads per rerank run (default 1); the CPU cap divides the CPU limit by it.")
    public Integer intraOpThreads;

    @Min(1)
    @Max(SchemaBounds.QUEUE_TIMEOUT_MAX_MILLIS)
    @JsonPropertyDescription("How long a search waits for a rerank slot before a retryable busy error (default 1000: short, so a client under load hears at once that it should retry).")
    public Integer queueTimeoutMillis;
}
