package io.ragsearch.sim.node;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Loopback addresses for pods: 127.0.0.2 upward (127.0.0.1 is the machine's own), fresh ones
 * first so a new pod does not take the address an old one had a moment ago. An address whose
 * ports something else on this machine holds (another agent's pod) is passed over.
 */
final class AddressPool {
    private static final int LAST = (255 << 8) | 254; // 127.0.255.254
    private final Deque<String> free = new ArrayDeque<>();
    private int next = 2;

    /** An address where {@code usable} holds (its ports are free). */
    synchronized String take(java.util.function.Predicate<String> usable) {
        while (true) {
            while (next <= LAST && ((next & 255) == 0 || (next & 255) == 255)) {
                next++;
            }
            String ip;
            if (next <= LAST) {
                int n = next++;
                ip = "127.0." + (n >> 8) + "." + (n & 255);
            } else if (!free.isEmpty()) {
                ip = free.poll();
            } else {
                throw new IllegalStateException("no loopback address left for another pod");
            }
            if (usable.test(ip)) {
                return ip;
            }
        }
    }

    /** Whether each of these TCP ports can be bound on the address now. */
    static boolean portsFree(String ip, java.util.Collection<Integer> ports) {
        for (int port : ports) {
            try (java.net.ServerSocket s = new java.net.ServerSocket()) {
                s.bind(new java.net.InetSocketAddress(ip, port));
            } catch (java.io.IOException e) {
                return false;
            }
        }
        return true;
    }

    synchronized void release(String ip) {
        free.add(ip);
    }
}
