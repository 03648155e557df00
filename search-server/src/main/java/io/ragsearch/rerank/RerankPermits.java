package io.ragsearch.rerank;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The rerank memory bound as permits whose number can move while reranks run (an in-place memory
 * resize). A run starts only while fewer than {@link #limit()} runs hold a permit. Lowering the
 * limit takes effect for the next acquire at once — no new run starts until the running ones are
 * below the new bound — while runs already started finish under the permit they hold: taking
 * memory back from a running ONNX run is not possible, waiting for it to end is.
 * {@link #inForce()} says when the running runs fit the current limit again.
 *
 * <p>A {@link java.util.concurrent.Semaphore} cannot do this: it can grow (release) but shrinking
 * it (reducePermits) lets its count go negative only while nobody waits, and it cannot report whether the
 * holders already fit. Waiters are served in arrival order by the fair lock's queue.
 */
public final class RerankPermits {

    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition freed = lock.newCondition();
    private int limit;
    private int held;

    public RerankPermits(int limit) {
        this.limit = checked(limit);
    }

    private static int checked(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("rerank concurrency must be at least 1, got " + limit);
        }
        return limit;
    }

    /** Takes a permit, waiting at most {@code millis} for the running runs to fall below the limit. */
    public boolean tryAcquire(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        lock.lockInterruptibly();
        try {
            while (held >= limit) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                freed.awaitNanos(left);
            }
            held++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    public void release() {
        lock.lock();
        try {
            if (held == 0) {
                throw new IllegalStateException("a rerank permit released that was not taken");
            }
            held--;
            freed.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves the limit. It is in force for every acquire after this returns; a raise wakes as many
     * waiters as it frees places for.
     *
     * @return whether the runs holding permits already fit the new limit (see {@link #inForce()})
     */
    public boolean setLimit(int newLimit) {
        checked(newLimit);
        lock.lock();
        try {
            limit = newLimit;
            freed.signalAll();
            return held <= limit;
        } finally {
            lock.unlock();
        }
    }

    public int limit() {
        lock.lock();
        try {
            return limit;
        } finally {
            lock.unlock();
        }
    }

    public int held() {
        lock.lock();
        try {
            return held;
        } finally {
            lock.unlock();
        }
    }

    /** No more runs hold a permit than the limit allows (false after a decrease until enough have ended). */
    public boolean inForce() {
        lock.lock();
        try {
            return held <= limit;
        } finally {
            lock.unlock();
        }
    }
}
