package io.ragsearch.operator.model;

/**
 * Upper bounds of the schema's lists, strings and maps. A real API server estimates the cost of
 * every CEL rule from these (an unbounded list or string counts as the whole 3 MiB request), so
 * each one is as small as real use allows; the reconciler never needs more.
 */
public final class SchemaBounds {
    /** DNS subdomain names: Secrets, ConfigMaps, claims, priority classes. */
    public static final int OBJECT_NAME = 253;
    /** An image reference: registry/path (255) + tag (128) or digest (71), with room to spare. */
    public static final int IMAGE = 512;
    public static final int URL = 2048;
    public static final int PATH = 1024;
    public static final int DESCRIPTION = 1024;
    /** A quantity's text (1500Mi, 2, 1e9, 0.5): well below this. */
    public static final int QUANTITY = 32;
    /** One pod per project would already be unusual; 64 keeps a config map and the CEL rules small. */
    public static final int PROJECTS = 64;
    public static final int REPLICAS = 1000;
    /** Labels, annotations, node selectors and label selectors: entries. */
    public static final int MAP_ENTRIES = 64;
    /** Label values are at most 63 characters; annotation values may be longer. */
    public static final int LABEL_VALUE = 63;
    public static final int ANNOTATION_VALUE = 4096;
    /** Tolerations, spread constraints, pull secrets: entries. */
    public static final int POD_LIST = 32;
    /** Audiences, algorithms, scopes and the identities of one access rule: a handful each in any real set-up. */
    public static final int AUTH_LIST = 64;
    /** Status strings the operator writes (digests, timestamps, sources, keys). */
    public static final int STATUS_TEXT = 2048;
    public static final int CONDITIONS = 16;

    /** Integer ranges the schema states and {@code SpecCheck} applies to what reaches it without the schema (render). */
    public static final int STARTUP_TIMEOUT_MIN_SECONDS = 30;
    /** A day: no model load takes longer, and the probe's failureThreshold arithmetic stays far from overflow. */
    public static final int STARTUP_TIMEOUT_MAX_SECONDS = 86_400;
    public static final int PRE_STOP_DELAY_MAX_SECONDS = 300;
    /** A stopping server's time to finish its work after SIGTERM: more than ten minutes only delays node drains. */
    public static final int SHUTDOWN_MAX_SECONDS = 600;
    public static final int HEADROOM_PERCENT_MAX = 90;
    public static final int VERIFICATION_TIMEOUT_MIN_SECONDS = 5;
    public static final int VERIFICATION_TIMEOUT_MAX_SECONDS = 86_400;
    /** Ten minutes: a search waiting longer for a rerank slot has long lost its caller. */
    public static final int QUEUE_TIMEOUT_MAX_MILLIS = 600_000;
    /** An autoscaler target: above 1000 % of the request no pod would ever count as busy. */
    public static final int UTILIZATION_PERCENT_MAX = 1000;
    /** An hour, the HorizontalPodAutoscaler's own bound on a stabilization window. */
    public static final int STABILIZATION_MAX_SECONDS = 3600;

    private SchemaBounds() {
    }
}
