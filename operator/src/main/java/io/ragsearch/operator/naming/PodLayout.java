package io.ragsearch.operator.naming;

import io.ragsearch.contract.AdminEndpoints;

/** Inside a server pod: its container, its ports and the paths where its volumes are mounted. */
public final class PodLayout {
    public static final String SERVER_CONTAINER = "search-server";

    public static final String MCP_PORT_NAME = "mcp";
    public static final String ADMIN_PORT_NAME = "admin";
    public static final int MCP_PORT = AdminEndpoints.DEFAULT_MCP_PORT;
    public static final int ADMIN_PORT = AdminEndpoints.DEFAULT_ADMIN_PORT;

    public static final String CONFIG_DIR = "/etc/ragsearch";
    public static final String CONFIG_FILE = "config.yaml";
    public static final String MODEL_DIR = "/models";
    public static final String CORPUS_DIR = "/corpus";
    /** Passage vectors kept between starts: a claim's mount when spec.vectorCache names one, else inside /tmp. */
    public static final String VECTOR_CACHE_DIR = "/var/cache/ragsearch/vectors";
    public static final String VECTOR_CACHE_IN_TMP = "/tmp/ragsearch-vectors";
    /** Where a candidate pod finds its checks file, and the volume that mounts it. */
    public static final String CHECKS_DIR = "/etc/ragsearch-checks";
    /**
     * spec.auth.kubernetesKeys: the pod's own ServiceAccount token and the cluster CA, projected, with
     * which the server reads the API server's JWKS (the pods' automounted token stays off).
     */
    public static final String KUBE_API_DIR = "/var/run/secrets/ragsearch/kube-api";
    public static final String KUBE_API_VOLUME = "kube-api-access";
    public static final String KUBE_API_TOKEN = "token";
    public static final String KUBE_API_CA = "ca.crt";
    public static final String CHECKS_VOLUME = "verification-checks";

    private PodLayout() {
    }
}
