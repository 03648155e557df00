package io.ragsearch.operator.spec;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;

/**
 * A spec that passed every check, with its quantities parsed and its defaults applied.
 * {@code cpuMillis} is null without a CPU limit; {@code tmpSize} and {@code modelsSize} are quantities (defaults applied); {@code heapBytes} the JVM's -Xmx; {@code rerankerSource} is null without a reranker.
 */
public record CheckedSpec(RagSearch resource, String image, int replicas, long memoryBytes, String memory,
                          Long cpuMillis, String cpu, RerankBudget.Request request, String requested,
                          int headroomPercent, int intraOpThreads, int startupTimeoutSeconds, String rerankerSource,
                          String expectedRerankerDigest, String tmpSize, String modelsSize, long heapBytes) {

    public static final int DEFAULT_STARTUP_TIMEOUT_SECONDS = 600;

    public RagSearchSpec spec() {
        return resource.getSpec();
    }

    public String name() {
        return resource.getMetadata().getName();
    }

    public String namespace() {
        return resource.getMetadata().getNamespace();
    }

    public boolean reranks() {
        return rerankerSource != null;
    }
}
