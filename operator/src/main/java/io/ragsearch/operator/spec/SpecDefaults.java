package io.ragsearch.operator.spec;

import io.ragsearch.contract.budget.RerankBudget;

/** What a spec gets for what it leaves out: one place, applied while checking. */
public final class SpecDefaults {
    public static final int REPLICAS = 1;
    /** spec.autoscaling: the HorizontalPodAutoscaler's own defaults (minReplicas 1, a 5-minute scale-down window). */
    public static final int AUTOSCALE_MIN_REPLICAS = 1;
    public static final int SCALE_DOWN_STABILIZATION_SECONDS = 300;
    public static final int STARTUP_TIMEOUT_SECONDS = 600;
    public static final String TMP_SIZE = "1Gi";
    public static final String MODELS_SIZE = "4Gi";
    public static final int HEADROOM_PERCENT = RerankBudget.DEFAULT_HEADROOM_PERCENT;
    public static final int INTRA_OP_THREADS = 1;
    /** A disruption budget without minAvailable keeps one pod. */
    public static final int MIN_AVAILABLE = 1;
    /** spec.verification: the checks file's key in its ConfigMap, and the time a verdict may take. */
    public static final String VERIFICATION_KEY = "checks.yaml";
    public static final int VERIFICATION_TIMEOUT_SECONDS = 900;

    private SpecDefaults() {
    }
}
