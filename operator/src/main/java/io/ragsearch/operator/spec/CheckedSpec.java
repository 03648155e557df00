package io.ragsearch.operator.spec;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;

/**
 * A spec that passed every check, with its quantities parsed and its defaults applied, in the
 * groups the checks produce ({@link SpecCheck} assembles it). {@code reranker} is null without a
 * reranker, {@code verification} without spec.verification. The flat accessors below are what the
 * manifests and the planners read.
 *
 * @param calibrationKey what a measurement taken under this spec depends on ({@link CalibrationKey}): computed
 *                       once, with the spec, and read from here by the pod labels and the rerank planner alike
 */
public record CheckedSpec(RagSearch resource, Rollout rollout, Limits limits, RerankSettings rerank, Reranker reranker,
                          Verification verification, String calibrationKey) {

    /** How many pods, and how long one may take to start; {@code autoscale} null without spec.autoscaling. */
    public record Rollout(int replicas, int startupTimeoutSeconds, Autoscale autoscale) {
    }

    /**
     * spec.autoscaling with its defaults: the bounds the HorizontalPodAutoscaler keeps spec.replicas
     * in, its targets (null: not measured) and the scale-down stabilization window.
     */
    public record Autoscale(int minReplicas, int maxReplicas, Integer cpuPercent, Integer memoryPercent,
                            int scaleDownStabilizationSeconds) {
    }

    /** The pod's limits: memory (and the JVM heap within it), CPU, and its two scratch volumes. */
    public record Limits(Memory memory, Cpu cpu, Storage storage) {
    }

    /** {@code text} as the spec wrote it; {@code heapBytes} the JVM's -Xmx. */
    public record Memory(long bytes, String text, long heapBytes) {
    }

    /** Both null without a CPU limit. */
    public record Cpu(Long millis, String text) {
    }

    /** Quantities as written (defaults applied): /tmp and the models volume. */
    public record Storage(String tmpSize, String modelsSize) {
    }

    /** The concurrency asked for ({@code requested} as people read it) and what the budget needs besides. */
    public record RerankSettings(RerankBudget.Request request, String requested, int headroomPercent, int intraOpThreads) {
    }

    /** {@code source} describes the model (a measurement is reused only for the same one); {@code expectedDigest} only for a URL. */
    public record Reranker(String source, String expectedDigest) {
    }

    /**
     * spec.verification with its defaults: the checks file (ConfigMap and key) and the time a verdict may take.
     *
     * @param withBaseline whether the candidate can be given the serving pods as baseline: not in
     *                     auth mode jwt, where it holds no token they would take (docs/security.md)
     */
    public record Verification(String configMap, String key, int timeoutSeconds, boolean withBaseline) {

        public Verification(String configMap, String key, int timeoutSeconds) {
            this(configMap, key, timeoutSeconds, true);
        }
    }

    /** The same spec under other limits (the ones a running pod template was made with), with the key those limits give. */
    public CheckedSpec withLimits(Limits value) {
        return new CheckedSpec(resource, rollout, value, rerank, reranker, verification,
                CalibrationKey.of(image(), value, rerank, reranker));
    }

    public RagSearchSpec spec() {
        return resource.getSpec();
    }

    public String name() {
        return resource.getMetadata().getName();
    }

    public String namespace() {
        return resource.getMetadata().getNamespace();
    }

    public String image() {
        return spec().image;
    }

    public int replicas() {
        return rollout.replicas();
    }

    /** Null without spec.autoscaling. */
    public Autoscale autoscale() {
        return rollout.autoscale();
    }

    public int startupTimeoutSeconds() {
        return rollout.startupTimeoutSeconds();
    }

    public long memoryBytes() {
        return limits.memory().bytes();
    }

    public String memory() {
        return limits.memory().text();
    }

    public long heapBytes() {
        return limits.memory().heapBytes();
    }

    public Long cpuMillis() {
        return limits.cpu().millis();
    }

    public String cpu() {
        return limits.cpu().text();
    }

    public String tmpSize() {
        return limits.storage().tmpSize();
    }

    public String modelsSize() {
        return limits.storage().modelsSize();
    }

    public RerankBudget.Request request() {
        return rerank.request();
    }

    public String requested() {
        return rerank.requested();
    }

    public int headroomPercent() {
        return rerank.headroomPercent();
    }

    public int intraOpThreads() {
        return rerank.intraOpThreads();
    }

    public boolean reranks() {
        return reranker != null;
    }

    public String rerankerSource() {
        return reranker == null ? null : reranker.source();
    }

    public String expectedRerankerDigest() {
        return reranker == null ? null : reranker.expectedDigest();
    }
}
