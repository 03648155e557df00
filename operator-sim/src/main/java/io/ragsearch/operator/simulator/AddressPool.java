package io.ragsearch.operator.simulator;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Loopback addresses for pods: 127.0.0.2 upward (127.0.0.1 is the machine's own), fresh ones
 * first so a new pod does not take the address an old one had a moment ago.
 */
final class AddressPool {
    private static final int LAST = (255 << 8) | 254; // 127.0.255.254
    private final Deque<String> free = new ArrayDeque<>();
    private int next = 2;

    synchronized String take() {
        while (next <= LAST && ((next & 255) == 0 || (next & 255) == 255)) {
            next++;
        }
        if (next <= LAST) {
            int n = next++;
            return "127.0." + (n >> 8) + "." + (n & 255);
        }
        if (free.isEmpty()) {
            throw new IllegalStateException("no loopback address left for another pod");
        }
        return free.poll();
    }

    synchronized void release(String ip) {
        free.add(ip);
    }
}
