package io.ragsearch.server;

import io.ragsearch.admin.MemoryLimitEndpoint;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.rerank.LiveBound;
import io.ragsearch.rerank.RerankLimiter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the rerank permits when the memory or CPU limit changes without a restart (an in-place pod
 * resize), or when a lower memory limit is announced ahead of a decrease: it polls the limit files
 * and applies {@link LiveBound} to the server's own calibration. The CPU limit is the operator's
 * (in the retune policy) until the cgroup's differs from what it said at the start. Before the calibration is there,
 * nothing moves (the operator's starting value holds); a change seen meanwhile is applied as soon
 * as it is.
 */
final class LiveRetune implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveRetune.class);

    /**
     * How often the limit files are read. Reading memory.max costs microseconds, so a short interval
     * is free; it bounds only how late an increase is used (a decrease never waits for it: the
     * operator announces it first and the cgroup shrinks after the permits did). One second is
     * below the kubelet's own resize reporting and well below the operator's wait for a re-tune.
     */
    static final Duration POLL = Duration.ofSeconds(1);

    /** The limit now (bytes, or millicores for CPU), or empty when there is none (or no file to read it from). */
    @FunctionalInterface
    interface LimitReader {
        OptionalLong read();
    }

    private final ServerSettings.Retune policy;
    private final LimitReader reader;
    private final LimitReader cpuReader;
    private final RerankLimiter limiter;
    private final IntConsumer lane;
    private final Supplier<Calibration> calibration;
    private final Clock clock;
    private final Long startLimit;
    private final Long startCpu;
    private ScheduledExecutorService poller;

    // Guarded by this: what was seen and what the bound was computed for.
    private Long cgroupLimit;
    private Long announced;
    private Long appliedFor;
    private Long cgroupCpu;
    private Long appliedCpu;
    private String source = LiveRerank.SOURCE_START;
    private int retunes;
    private Instant retunedAt;

    /**
     * @param reader    the memory limit in bytes
     * @param cpuReader the CPU limit in millicores (its cgroup's; always empty where none can be read)
     */
    LiveRetune(ServerSettings.Retune policy, LimitReader reader, LimitReader cpuReader, RerankLimiter limiter, IntConsumer lane,
               Supplier<Calibration> calibration, Metrics metrics, Clock clock) {
        this.policy = Objects.requireNonNull(policy);
        this.reader = reader;
        this.cpuReader = cpuReader;
        this.limiter = limiter;
        this.lane = lane;
        this.calibration = calibration;
        this.clock = clock;
        OptionalLong now = reader.read();
        this.startLimit = now.isPresent() ? now.getAsLong() : null;
        this.cgroupLimit = startLimit;
        this.appliedFor = startLimit;
        OptionalLong cpu = cpuReader.read();
        this.startCpu = cpu.isPresent() ? cpu.getAsLong() : null;
        this.cgroupCpu = startCpu;
        this.appliedCpu = LiveBound.cpuMillis(startCpu, startCpu, policy.cpuLimitMillis());
        metrics.gauge("ragsearch_memory_limit_bytes", "Memory limit the rerank permits are computed for (0: none known)",
                () -> {
                    Long l = snapshot().memoryLimitBytes();
                    return l == null ? 0 : l;
                });
        metrics.gauge("ragsearch_cpu_limit_millis", "CPU limit the rerank permits are computed for, in millicores (0: none known)",
                () -> {
                    Long m = snapshot().cpuLimitMillis();
                    return m == null ? 0 : m;
                });
        metrics.counterFunction("ragsearch_rerank_retunes_total", "Times the rerank permits moved without a restart",
                () -> snapshot().retunes());
        metrics.gauge("ragsearch_rerank_retuned_timestamp_seconds", "When the rerank permits last moved (0: never)",
                () -> {
                    Instant at = retunedAt();
                    return at == null ? 0 : at.toEpochMilli() / 1000.0;
                });
        metrics.gauge("ragsearch_rerank_permits_in_force", "1 while no more reranks run than the permits allow (0 after a "
                + "decrease until the runs started before it end)", () -> limiter.inForce() ? 1 : 0);
    }

    void start() {
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "limit-poll");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::pollQuietly, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (RuntimeException e) {
            LOG.warn("reading the memory and CPU limits: {}", e.toString());
        }
    }

    /**
     * Reads the limits; a change of the memory limit drops an announcement (the change it announced
     * has happened, or another replaced it).
     */
    synchronized void poll() {
        OptionalLong read = reader.read();
        Long now = read.isPresent() ? read.getAsLong() : null;
        if (!Objects.equals(now, cgroupLimit)) {
            LOG.info("memory limit changed from {} to {}", mib(cgroupLimit), mib(now));
            cgroupLimit = now;
            announced = null;
        }
        OptionalLong cpuRead = cpuReader.read();
        Long cpuNow = cpuRead.isPresent() ? cpuRead.getAsLong() : null;
        if (!Objects.equals(cpuNow, cgroupCpu)) {
            LOG.info("CPU limit changed from {} to {}", millis(cgroupCpu), millis(cpuNow));
            cgroupCpu = cpuNow;
        }
        apply();
    }

    /** A lower limit is coming: its bound is in force for new reranks when this returns. */
    synchronized MemoryLimitEndpoint.Answer announce(long bytes) {
        if (calibration.get() == null) {
            return new MemoryLimitEndpoint.Answer(409, "{\"status\":\"not measured yet: the bound cannot be computed\"}");
        }
        announced = bytes;
        LOG.info("memory limit {} announced (now {})", mib(bytes), mib(cgroupLimit));
        apply();
        return new MemoryLimitEndpoint.Answer(200, CalibrationJson.writeLive(snapshot()));
    }

    private void apply() {
        LiveBound.Target target = LiveBound.target(cgroupLimit, announced, !Objects.equals(cgroupLimit, startLimit));
        Long cpu = LiveBound.cpuMillis(cgroupCpu, startCpu, policy.cpuLimitMillis());
        Calibration measured = calibration.get();
        if (Objects.equals(target.bytes(), appliedFor) && Objects.equals(cpu, appliedCpu)) {
            if (retunes > 0) {
                source = target.source(); // the cgroup reached an announced limit: same bound, now the cgroup's
            }
            return;
        }
        if (target.bytes() == null || measured == null || !measured.hasReranker()) {
            return;
        }
        int before = limiter.permits();
        int after = LiveBound.concurrency(measured, target.bytes(), cpu, policy).concurrency();
        // Permits first, then the lane: a raise's extra lane threads find their permits waiting.
        boolean fits = limiter.retune(after);
        lane.accept(after);
        appliedFor = target.bytes();
        appliedCpu = cpu;
        source = target.source();
        retunes++;
        retunedAt = clock.instant();
        LOG.info("rerank concurrency re-tuned {} -> {} for a memory limit of {} ({}) and a CPU limit of {}; {}", before, after,
                mib(target.bytes()), target.source(), millis(cpu), fits ? "in force" : limiter.inFlight() + " reranks started before finish first");
    }

    synchronized LiveRerank snapshot() {
        return new LiveRerank(appliedFor, source, limiter.permits(), limiter.inFlight(), limiter.inForce(), retunes,
                retunedAt == null ? null : retunedAt.toString(), appliedCpu);
    }

    private synchronized Instant retunedAt() {
        return retunedAt;
    }

    private static String mib(Long bytes) {
        return bytes == null ? "none" : (bytes >> 20) + " MiB";
    }

    private static String millis(Long cpu) {
        return cpu == null ? "none" : cpu + "m";
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
