package io.ragsearch.embed;

import ai.onnxruntime.OrtException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Native model runs in flight behind one gate, which can be shut: shutting waits for the runs in
 * flight and lets no new one start. Sessions run concurrently, so runs share the read side;
 * shutting takes the write side and keeps it.
 */
public final class RunGate {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final String what;
    private volatile boolean shut;

    public RunGate(String what) {
        this.what = what;
    }

    /** A native call that may throw ONNX Runtime's checked exception. */
    @FunctionalInterface
    public interface OrtCall<T> {
        T call() throws OrtException;
    }

    public <T> T run(OrtCall<T> call) throws OrtException {
        if (shut) {
            throw new Shut(what);
        }
        lock.readLock().lock();
        try {
            if (shut) {
                throw new Shut(what);
            }
            return call.call();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Refuses new runs and waits up to {@code max} for those in flight; true when none is left. */
    public boolean shut(Duration max) {
        shut = true;
        try {
            return lock.writeLock().tryLock(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A run asked for after the gate was shut. */
    public static final class Shut extends IllegalStateException {
        Shut(String what) {
            super(what + ": no new model run starts");
        }
    }
}
