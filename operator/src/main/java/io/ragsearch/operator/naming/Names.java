package io.ragsearch.operator.naming;

import io.ragsearch.contract.AdminEndpoints;

import java.util.LinkedHashMap;
import java.util.Map;

/** Object names, labels, ports and paths shared by the manifests, the reconciler and the tests. */
public final class Names {
    public static final String MANAGED_BY = "ragsearch-operator";
    public static final String LABEL_NAME = "app.kubernetes.io/name";
    public static final String LABEL_INSTANCE = "app.kubernetes.io/instance";
    public static final String LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String LABEL_COMPONENT = "app.kubernetes.io/component";
    /** Pods of the current template carry it: the reconciler counts ready pods and reads calibrations by it. */
    public static final String CONFIG_HASH = "ragsearch.io/config-hash";
    /** What a calibration depends on; pods with the current key measure under the current limits. */
    public static final String CALIBRATION_KEY = "ragsearch.io/calibration-key";
    /**
     * The version a pod template runs: its digest without the rerank concurrency (the tuning
     * loop's re-rolls keep the version). A change of version is verified before it is promoted.
     */
    public static final String VERSION = "ragsearch.io/version";
    /** Candidate pods carry it; their name label is {@link #CANDIDATE_NAME}, so no Service, Deployment or PDB of the serving pods selects them. */
    public static final String LABEL_ROLE = "ragsearch.io/role";
    public static final String ROLE_CANDIDATE = "candidate";
    public static final String CANDIDATE_NAME = "ragsearch-candidate";
    /** Where a candidate pod finds its checks file, and the volume that mounts it. */
    public static final String CHECKS_DIR = "/etc/ragsearch-checks";
    public static final String CHECKS_VOLUME = "verification-checks";
    /** Keys under this prefix are the operator's own (hash, calibration key). */
    public static final String KEY_PREFIX = "ragsearch.io/";
    public static final String MANAGED_SELECTOR = LABEL_MANAGED_BY + "=" + MANAGED_BY;

    public static final String MCP_PORT_NAME = "mcp";
    public static final String ADMIN_PORT_NAME = "admin";
    public static final int MCP_PORT = AdminEndpoints.DEFAULT_MCP_PORT;
    public static final int ADMIN_PORT = AdminEndpoints.DEFAULT_ADMIN_PORT;

    public static final String CONFIG_DIR = "/etc/ragsearch";

    /**
     * The serving Service's in-cluster name: a candidate's verification compares with it, and a
     * candidate pod allows no other baseline (its bearer token goes to the baseline).
     */
    public static String serviceHost(String name, String namespace) {
        return name + "." + namespace + ".svc";
    }

    /** The serving Service's MCP endpoint, as a candidate reaches it. */
    public static String serviceMcpUrl(String name, String namespace) {
        return "http://" + serviceHost(name, namespace) + ":" + MCP_PORT + AdminEndpoints.MCP_PATH;
    }
    public static final String CONFIG_FILE = "config.yaml";
    public static final String MODEL_DIR = "/models";
    public static final String CORPUS_DIR = "/corpus";
    /** Passage vectors kept between starts: a claim's mount when spec.vectorCache names one, else inside /tmp. */
    public static final String VECTOR_CACHE_DIR = "/var/cache/ragsearch/vectors";
    public static final String VECTOR_CACHE_IN_TMP = "/tmp/ragsearch-vectors";
    public static final String SERVER_CONTAINER = "search-server";

    private Names() {
    }

    public static String configMap(String instance) {
        return instance + "-config";
    }

    /**
     * The volume of a project's corpus ConfigMap. Volume names are DNS labels (at most 63
     * characters, letters, digits and '-', alphanumeric at both ends), project names may also
     * hold '.' and '_' and reach 63 characters: a name that had to change gets a hash of the
     * original, so "hand-book", "hand.book" and "hand_book" get three distinct, valid volumes.
     */
    public static String corpusVolume(String project) {
        String safe = project.replace('.', '-').replace('_', '-');
        String trimmed = safe.length() > 40 ? safe.substring(0, 40) : safe;
        trimmed = trimmed.replaceAll("-+$", "");
        String volume = "corpus-" + trimmed;
        return trimmed.equals(project) ? volume : volume + "-" + ConfigHash.of(project).substring(0, 8);
    }

    /** The candidate Deployment of a new version, and its own server ConfigMap (the serving pods keep theirs). */
    public static String candidate(String instance) {
        return instance + "-candidate";
    }

    public static String candidateConfigMap(String instance) {
        return instance + "-candidate-config";
    }

    public static String endpoint(String name, String namespace) {
        return "http://" + name + "." + namespace + ".svc:" + MCP_PORT + AdminEndpoints.MCP_PATH;
    }

    /** The labels every owned object carries; the first two also select the pods. */
    public static Map<String, String> labels(String instance) {
        Map<String, String> labels = selector(instance);
        labels.put(LABEL_MANAGED_BY, MANAGED_BY);
        labels.put(LABEL_COMPONENT, "search-server");
        return labels;
    }

    /** A label a spec may not set on the pods: the selector and the operator's own keys. */
    public static boolean reservedKey(String key) {
        return key.equals(LABEL_NAME) || key.equals(LABEL_INSTANCE) || key.equals(LABEL_MANAGED_BY)
                || key.equals(LABEL_COMPONENT) || key.startsWith(KEY_PREFIX);
    }

    public static Map<String, String> selector(String instance) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_NAME, "ragsearch");
        labels.put(LABEL_INSTANCE, instance);
        return labels;
    }
}
