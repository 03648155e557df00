package io.ragsearch.contract;

/** The environment variables the operator sets in a pod and the server reads. */
public final class Environment {
    /** Path of the server's configuration file. */
    public static final String CONFIG = "RAGSEARCH_CONFIG";
    public static final String BIND_ADDRESS = "RAGSEARCH_BIND_ADDRESS";
    public static final String MCP_PORT = "RAGSEARCH_MCP_PORT";
    public static final String ADMIN_PORT = "RAGSEARCH_ADMIN_PORT";
    /** Permits of the rerank memory bound: the operator's decision, applied by a rolling restart. */
    public static final String RERANK_CONCURRENCY = "RAGSEARCH_RERANK_CONCURRENCY";
    public static final String DB_URL = "RAGSEARCH_DB_URL";
    public static final String DB_USER = "RAGSEARCH_DB_USER";
    public static final String DB_PASSWORD = "RAGSEARCH_DB_PASSWORD";
    /** Bearer token the MCP listener requires when set (from a Secret). */
    public static final String AUTH_TOKEN = "RAGSEARCH_AUTH_TOKEN";
    /** Directory below which model paths of the configuration resolve (a pod's models volume). */
    public static final String MODEL_DIR = "RAGSEARCH_MODEL_DIR";
    /** Forces the memory probe (cgroup or process RSS); for tests and unusual hosts. */
    public static final String MEMORY_PROBE = "RAGSEARCH_MEMORY_PROBE";
    /**
     * The file the live memory limit is read from (cgroup v2 {@code memory.max} format) instead of
     * the process's own cgroup: for tests and hosts that mount the cgroup elsewhere.
     */
    public static final String MEMORY_LIMIT_FILE = "RAGSEARCH_MEMORY_LIMIT_FILE";
    /**
     * The file the live CPU limit is read from (cgroup v2 {@code cpu.max} format) instead of the
     * process's own cgroup: for tests and hosts that mount the cgroup elsewhere.
     */
    public static final String CPU_LIMIT_FILE = "RAGSEARCH_CPU_LIMIT_FILE";
    /** Path of the checks file a candidate runs against itself on {@link AdminEndpoints#VERIFICATION} (a mounted ConfigMap key). */
    public static final String VERIFY_CHECKS = "RAGSEARCH_VERIFY_CHECKS";
    /**
     * The baselines a candidate's verification may call, comma-separated host names, addresses or
     * CIDR blocks (the operator: the serving Service of the same RagSearch). Unset: none.
     */
    public static final String VERIFY_BASELINES = "RAGSEARCH_VERIFY_BASELINES";
    /**
     * Directory where passage vectors of directory projects are kept between starts (a pod's
     * cache volume); "off" keeps none. Unset: the user's cache directory.
     */
    public static final String VECTOR_CACHE = "RAGSEARCH_VECTOR_CACHE";
    /** Directory holding the built-in models fetched at build time (the image sets it). */
    public static final String BUILTIN_MODELS = "RAGSEARCH_BUILTIN_MODELS";

    private Environment() {
    }
}
