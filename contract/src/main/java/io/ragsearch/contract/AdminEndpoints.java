package io.ragsearch.contract;

/** The server's listeners as the operator's probes, Services and calibration reader address them. */
public final class AdminEndpoints {
    public static final String MCP_PATH = "/mcp";
    public static final int DEFAULT_MCP_PORT = 8080;
    public static final int DEFAULT_ADMIN_PORT = 8081;

    /** 200 while the process can answer at all; never depends on a dependency. */
    public static final String LIVEZ = "/livez";
    /** 200 once the start-up sequence (index, calibration, MCP listener) is done. */
    public static final String STARTUPZ = "/startupz";
    public static final String READYZ = "/readyz";
    public static final String INFO = "/info";
    /** The measurement the operator's budget is computed from (see calibration.Calibration). */
    public static final String CALIBRATION = "/calibration";
    public static final String METRICS = "/metrics";
    /**
     * {@code PUT ?bytes=N}: the memory limit about to apply (N bytes, a whole number). The
     * server moves its rerank permits to that limit's bound at once (it never raises them above
     * what its own limit allows) and says on {@link #CALIBRATION} ({@code live.inForce}) when the
     * runs started under the old bound are done; the operator lowers a pod's limit only after that.
     */
    public static final String RERANK_MEMORY_LIMIT = "/rerank/memory-limit";
    /** The query parameter of a memory-limit PUT: the limit in bytes. */
    public static final String RERANK_MEMORY_LIMIT_BYTES = "bytes";
    /**
     * {@code POST ?baseline=MCP-URL} starts one run of the pod's checks file against its own MCP
     * listener with the running version as baseline; {@code GET} answers the run (see
     * verification.Verification). 404 without a checks file, 409 while a run is in progress.
     */
    public static final String VERIFICATION = "/verification";
    /** The query parameter of a verification POST naming the baseline's MCP endpoint. */
    public static final String VERIFICATION_BASELINE = "baseline";

    private AdminEndpoints() {
    }
}
