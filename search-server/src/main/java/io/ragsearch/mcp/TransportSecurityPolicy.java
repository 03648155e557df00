package io.ragsearch.mcp;

import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityValidator;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Host/Origin checks against DNS rebinding. On a loopback bind they are on by default (only a
 * local browser can reach the server, and only a rebinding attack sends a foreign Host). On
 * any other bind they are off unless configured: the Host a cluster client sends (a Service
 * name, a pod IP) is not known here, and guessing would answer 421 to every legitimate caller.
 * "*" as the only entry turns a check off explicitly.
 */
public record TransportSecurityPolicy(List<String> allowedHosts, List<String> allowedOrigins) {

    private static final List<String> LOOPBACK_HOSTS = List.of("localhost:*", "127.0.0.1:*", "[::1]:*");
    private static final List<String> LOOPBACK_ORIGINS = List.of("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*");

    public static TransportSecurityPolicy forBind(String bindAddress, List<String> hosts, List<String> origins) {
        boolean loopback = isLoopback(bindAddress);
        List<String> loopbackHosts = new java.util.ArrayList<>(LOOPBACK_HOSTS);
        List<String> loopbackOrigins = new java.util.ArrayList<>(LOOPBACK_ORIGINS);
        // A server bound to one loopback address (127.0.0.5, as the pod simulator does) is called by that address.
        String own = bindAddress.contains(":") && !bindAddress.startsWith("[") ? "[" + bindAddress + "]" : bindAddress;
        if (loopback && !loopbackHosts.contains(own + ":*") && !own.equals("localhost")) {
            loopbackHosts.add(own + ":*");
            loopbackOrigins.add("http://" + own + ":*");
        }
        return new TransportSecurityPolicy(
                choose(hosts, loopback ? List.copyOf(loopbackHosts) : List.of()),
                choose(origins, loopback ? List.copyOf(loopbackOrigins) : List.of()));
    }

    private static List<String> choose(List<String> configured, List<String> fallback) {
        if (configured == null) {
            return fallback;
        }
        return configured.equals(List.of("*")) ? List.of() : List.copyOf(configured);
    }

    static boolean isLoopback(String bindAddress) {
        if (bindAddress.equals("localhost")) {
            return true;
        }
        try {
            return InetAddress.getByName(bindAddress).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    public ServerTransportSecurityValidator validator() {
        if (allowedHosts.isEmpty() && allowedOrigins.isEmpty()) {
            return ServerTransportSecurityValidator.NOOP;
        }
        var builder = DefaultServerTransportSecurityValidator.builder();
        if (!allowedHosts.isEmpty()) {
            builder.allowedHosts(allowedHosts);
        }
        if (!allowedOrigins.isEmpty()) {
            builder.allowedOrigins(allowedOrigins);
        }
        return builder.build();
    }

    public String describe() {
        return "Host check " + (allowedHosts.isEmpty() ? "off" : allowedHosts)
                + ", Origin check " + (allowedOrigins.isEmpty() ? "off" : allowedOrigins);
    }
}
