package io.ragsearch.contract.budget;

/**
 * The one implementation of the design's safe-concurrency formula:
 *
 * <pre>
 * budget   = memoryLimit × (1 − headroom) − resident
 * byMemory = floor(budget / perRun)
 * byCpu    = max(1, floor(cpuLimit / intraOpThreads))     no CPU limit: MAX_WITHOUT_CPU_LIMIT
 * safe     = max(1, min(byMemory, byCpu))
 * </pre>
 *
 * and the choice between what was requested and what is safe. Pure arithmetic: no I/O, no clock.
 */
public final class RerankBudget {

    public static final int DEFAULT_HEADROOM_PERCENT = 10;
    /**
     * The cap when the pod has no CPU limit: reranking is CPU-bound (lesson 4: concurrency beyond
     * the cores buys no throughput, only memory), the node's cores are not known here, and a
     * memory-only bound from a small measured cost could otherwise reach thousands.
     */
    public static final int MAX_WITHOUT_CPU_LIMIT = 8;

    private RerankBudget() {
    }

    /** What a pod measured about itself (from its {@code /calibration}), in bytes. */
    public record Measurement(long residentBytes, long perRunBytes, int intraOpThreads) {
        public Measurement {
            if (residentBytes < 0) {
                throw new IllegalArgumentException("residentBytes must not be negative, got " + residentBytes);
            }
            // A run that costs nothing is a broken measurement, not an unlimited concurrency.
            if (perRunBytes <= 0) {
                throw new IllegalArgumentException("perRunBytes must be positive, got " + perRunBytes);
            }
            if (intraOpThreads < 1) {
                throw new IllegalArgumentException("intraOpThreads must be at least 1, got " + intraOpThreads);
            }
        }
    }

    /** The limits the pods run under: memory in bytes, CPU in millicores (null: no CPU limit). */
    public record Limits(long memoryLimitBytes, Long cpuLimitMillis, int headroomPercent) {
        public Limits {
            if (memoryLimitBytes <= 0) {
                throw new IllegalArgumentException("memory limit must be positive, got " + memoryLimitBytes);
            }
            if (cpuLimitMillis != null && cpuLimitMillis <= 0) {
                throw new IllegalArgumentException("CPU limit must be positive, got " + cpuLimitMillis + "m");
            }
            if (headroomPercent < 0 || headroomPercent >= 100) {
                throw new IllegalArgumentException("headroomPercent must be in [0, 100), got " + headroomPercent);
            }
        }
    }

    /**
     * The formula's intermediate numbers, kept so the status can show why.
     * {@code byCpu} is null when there is no CPU limit. {@code byMemory} may be zero or negative.
     */
    public record Safe(long budgetBytes, long byMemory, Integer byCpu, int safe) {
        /** Not even one run fits beside what the process already holds. */
        public boolean memoryInsufficient() {
            return byMemory < 1;
        }
    }

    public static Safe safe(Limits limits, Measurement measured) {
        long usable = Math.multiplyExact(limits.memoryLimitBytes(), 100L - limits.headroomPercent()) / 100L;
        long budget = usable - measured.residentBytes();
        long byMemory = Math.floorDiv(budget, measured.perRunBytes());
        Integer byCpu = limits.cpuLimitMillis() == null ? null
                : (int) Math.min(Integer.MAX_VALUE, Math.max(1, limits.cpuLimitMillis() / (1000L * measured.intraOpThreads())));
        long capped = Math.min(byMemory, byCpu == null ? MAX_WITHOUT_CPU_LIMIT : byCpu);
        int safe = (int) Math.max(1, Math.min(capped, Integer.MAX_VALUE));
        return new Safe(budget, byMemory, byCpu, safe);
    }

    /** What the user asked for: "auto" (null here) or a fixed N, optionally forced past the safe value. */
    public record Request(Integer fixed, boolean force) {
        public static Request auto() {
            return new Request(null, false);
        }

        public Request {
            if (fixed != null && fixed < 1) {
                throw new IllegalArgumentException("a fixed concurrency must be at least 1, got " + fixed);
            }
        }
    }

    /** The concurrency the pods get, and whether a fixed request was cut down to the safe value. */
    public record Effective(int concurrency, boolean clamped) {
    }

    /**
     * Chooses the effective concurrency. Without a measurement it is 1 (nothing is known about
     * the cost of a run yet), unless an expert forces a fixed value.
     */
    public static Effective effective(Request request, Safe safe) {
        if (request.force() && request.fixed() != null) {
            return new Effective(request.fixed(), false);
        }
        if (safe == null) {
            return new Effective(1, false);
        }
        if (request.fixed() == null) {
            return new Effective(safe.safe(), false);
        }
        return request.fixed() > safe.safe() ? new Effective(safe.safe(), true) : new Effective(request.fixed(), false);
    }
}
