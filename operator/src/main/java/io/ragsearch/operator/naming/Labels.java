package io.ragsearch.operator.naming;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The label and annotation keys the operator writes on its objects and pods, their values, and
 * the selectors built from them.
 */
public final class Labels {
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
    /** The name label of the serving pods (the Service selects them) and of a verification's candidate pods (nothing does). */
    public static final String SERVING_NAME = "ragsearch";
    public static final String CANDIDATE_NAME = "ragsearch-candidate";
    /** Keys under this prefix are the operator's own (hash, calibration key). */
    public static final String KEY_PREFIX = "ragsearch.io/";
    public static final String MANAGED_SELECTOR = LABEL_MANAGED_BY + "=" + MANAGED_BY;

    private Labels() {
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

    /** {@link #selector} as the scale subresource's status.selector gives it (k=v,k=v): the pods an autoscaler measures. */
    public static String selectorText(String instance) {
        return String.join(",", selector(instance).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    public static Map<String, String> selector(String instance) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_NAME, SERVING_NAME);
        labels.put(LABEL_INSTANCE, instance);
        return labels;
    }
}
