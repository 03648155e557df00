package io.ragsearch.sim.cluster;

import java.time.Duration;

/**
 * A step run again and again on a daemon thread, a pause between runs, until closed: how the
 * end-to-end tests watch a cluster while it changes (replicas over time, which pods serve). A
 * step that throws is skipped, not fatal: on a busy machine the API server is sometimes slow to
 * answer one read, and the next read sees the same state.
 */
public final class Repeating implements AutoCloseable {
    private final Thread thread;

    private Repeating(Thread thread) {
        this.thread = thread;
    }

    public static Repeating every(Duration pause, String name, Runnable step) {
        Thread thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    step.run();
                } catch (RuntimeException e) {
                    // one slow or failed read; the next run reads again
                }
                try {
                    Thread.sleep(pause.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return new Repeating(thread);
    }

    /** Stops the runs and waits for the one in flight (a step is a few API reads). */
    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(Duration.ofSeconds(30).toMillis());
    }
}
