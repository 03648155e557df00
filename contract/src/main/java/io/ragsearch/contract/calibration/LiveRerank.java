package io.ragsearch.contract.calibration;

/**
 * The rerank bound a server runs with now, published in {@code /calibration} under {@code live}
 * beside the measurement it comes from. It moves without a restart when the memory or CPU limit
 * is resized in place (a memory decrease also when announced ahead, see
 * AdminEndpoints.RERANK_MEMORY_LIMIT).
 *
 * @param memoryLimitBytes the limit the concurrency is computed for (null: none known)
 * @param limitSource      {@code start} (the limit the process started under), {@code cgroup} (a
 *                         resize the process saw) or {@code announced} (a decrease announced ahead)
 * @param concurrency      the rerank permits in force for new reranks
 * @param inFlight         reranks running now
 * @param inForce          whether no more than {@code concurrency} reranks run: after a decrease,
 *                         false until the runs started under the old bound have finished
 * @param retunes          how many times the bound moved since the start
 * @param retunedAt        when it last moved (ISO-8601), null if never
 * @param cpuLimitMillis   the CPU limit the concurrency is computed for, in millicores: the cgroup's
 *                         once it moved since the start, the operator's before (null: no limit, or
 *                         a server that does not say — the field came after the others)
 */
public record LiveRerank(Long memoryLimitBytes, String limitSource, int concurrency, int inFlight, boolean inForce,
                         int retunes, String retunedAt, Long cpuLimitMillis) {

    /** Without a CPU limit to tell (what a server before the field answered). */
    public LiveRerank(Long memoryLimitBytes, String limitSource, int concurrency, int inFlight, boolean inForce, int retunes,
                      String retunedAt) {
        this(memoryLimitBytes, limitSource, concurrency, inFlight, inForce, retunes, retunedAt, null);
    }

    public static final String SOURCE_START = "start";
    public static final String SOURCE_CGROUP = "cgroup";
    public static final String SOURCE_ANNOUNCED = "announced";
}
