package io.ragsearch.admin;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which open admin connection to close when a new one takes the table past its cap. Pure: the
 * table in opening order, the newcomer and the time in, the connection to close (or none) out.
 *
 * <p>First choice: the oldest connection already answered and idle between keep-alive requests
 * (its client loses nothing but a reconnect); one whose answer is still being written never goes. Next: the oldest that has sent no request for
 * {@link #GRACE_NANOS} (a slow or silent client: every real caller sends its request at once).
 * A connection younger than that without a request may be a probe whose request is on its way:
 * it is not closed while the table is below {@link #hardCap}; the table grows past the soft cap
 * instead. Only past the hard cap does the oldest of them go. Never the newcomer itself.
 */
final class AdmissionOrder {

    /**
     * How long a connection may be open without a request before it may be closed for room. A
     * kubelet probe times out after 1 s by default: a probe unanswered for that long has failed anyway.
     */
    static final long GRACE_NANOS = 1_000_000_000L;

    /**
     * One open connection: when it opened (System.nanoTime), the requests it has begun and those
     * whose answer has been written. Idle between keep-alive requests: every request begun answered.
     */
    record Slot(long openedNanos, AtomicInteger requests, AtomicInteger answered) {

        Slot(long openedNanos) {
            this(openedNanos, new AtomicInteger(), new AtomicInteger());
        }

        boolean answeredAndIdle() {
            int done = answered.get();
            return done > 0 && done == requests.get();
        }
    }

    private AdmissionOrder() {
    }

    /**
     * @param softCap past this many, answered and stale connections are closed
     * @param hardCap past this many, the oldest connection without a request is closed whatever its age
     */
    static <C> C toClose(Map<C, Slot> openInOrder, C newcomer, long nowNanos, int softCap, int hardCap) {
        if (openInOrder.size() <= softCap) {
            return null;
        }
        C oldestWithoutRequest = null;
        long oldestOpened = 0;
        for (Map.Entry<C, Slot> e : openInOrder.entrySet()) {
            if (e.getKey() == newcomer) {
                continue;
            }
            if (e.getValue().answeredAndIdle()) {
                return e.getKey();
            }
            // One being answered right now (a probe among them) is not closed for room.
            if (oldestWithoutRequest == null && e.getValue().requests().get() == 0) {
                oldestWithoutRequest = e.getKey();
                oldestOpened = e.getValue().openedNanos();
            }
        }
        if (oldestWithoutRequest == null) {
            return null;
        }
        boolean stale = nowNanos - oldestOpened >= GRACE_NANOS;
        return stale || openInOrder.size() > hardCap ? oldestWithoutRequest : null;
    }
}
