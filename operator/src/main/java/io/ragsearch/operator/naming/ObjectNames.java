package io.ragsearch.operator.naming;

import io.ragsearch.contract.AdminEndpoints;

/** The names of the objects the operator writes for a RagSearch, and the in-cluster address of its Service. */
public final class ObjectNames {

    private ObjectNames() {
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

    /**
     * The serving Service's in-cluster name: a candidate's verification compares with it, and a
     * candidate pod allows no other baseline (its bearer token goes to the baseline).
     */
    public static String serviceHost(String name, String namespace) {
        return name + "." + namespace + ".svc";
    }

    /** The serving Service's MCP endpoint, in the status for clients and as a candidate reaches it. */
    public static String serviceMcpUrl(String name, String namespace) {
        return "http://" + serviceHost(name, namespace) + ":" + PodLayout.MCP_PORT + AdminEndpoints.MCP_PATH;
    }
}
