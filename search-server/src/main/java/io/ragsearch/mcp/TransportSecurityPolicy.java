package io.ragsearch.mcp;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Host/Origin checks against DNS rebinding (the rules, in one table, are in docs/security.md).
 *
 * <p>Origin is checked on every bind: browsers always send it, cluster clients (and the SDKs'
 * non-browser clients) do not, so refusing a foreign Origin costs no legitimate caller. Without
 * configuration only loopback origins are allowed; {@code Origin: null} (sandboxed frames, file
 * pages) is refused unless listed. Host is checked where the allowed names are known: on a
 * loopback bind (loopback names and the bound address), or when configured. On any other bind
 * the Host a cluster client sends (a Service name, a pod IP) is not known here, and guessing would
 * answer 421 to every legitimate caller. "*" as the only entry turns a check off explicitly.
 */
public record TransportSecurityPolicy(List<String> allowedHosts, List<String> allowedOrigins) {

    private static final List<String> LOOPBACK_HOSTS = List.of("localhost:*", "127.0.0.1:*", "[::1]:*");
    private static final List<String> LOOPBACK_ORIGINS = List.of("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*");
    /** Values echoed in a refusal are cut: the message must stay small whatever was sent. */
    private static final int MAX_ECHO = 100;

    /** Why a request was refused: the HTTP status and the JSON-RPC error message. */
    public record Refusal(int status, String message) {
    }

    public static TransportSecurityPolicy forBind(String bindAddress, List<String> hosts, List<String> origins) {
        boolean loopback = isLoopback(bindAddress);
        List<String> loopbackHosts = new ArrayList<>(LOOPBACK_HOSTS);
        List<String> loopbackOrigins = new ArrayList<>(LOOPBACK_ORIGINS);
        // A server bound to one loopback address (127.0.0.5, as the pod simulator does) is called by that address.
        String own = bindAddress.contains(":") && !bindAddress.startsWith("[") ? "[" + bindAddress + "]" : bindAddress;
        if (loopback && !loopbackHosts.contains(own + ":*") && !own.equals("localhost")) {
            loopbackHosts.add(own + ":*");
            loopbackOrigins.add("http://" + own + ":*");
        }
        return new TransportSecurityPolicy(
                choose(hosts, loopback ? List.copyOf(loopbackHosts) : List.of()),
                choose(origins, List.copyOf(loopbackOrigins)));
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

    /** Empty when the request may proceed; otherwise the refusal (403 for Origin, 421 for Host). */
    public Optional<Refusal> check(String host, String origin) {
        if (origin != null && !allowedOrigins.isEmpty() && !matchesAny(allowedOrigins, origin)) {
            return Optional.of(new Refusal(403, "Origin '" + cut(origin) + "' is not allowed (DNS-rebinding protection)"));
        }
        if (!allowedHosts.isEmpty() && (host == null || !matchesAny(allowedHosts, host))) {
            return Optional.of(new Refusal(421, "Host '" + cut(host == null ? "" : host) + "' is not served here"));
        }
        return Optional.empty();
    }

    /** A pattern is exact ("http://a:8080", "null") or ends in ":*" for any port, or none. */
    static boolean matchesAny(List<String> patterns, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (String pattern : patterns) {
            String p = pattern.strip().toLowerCase(Locale.ROOT);
            if (p.endsWith(":*")) {
                String stem = p.substring(0, p.length() - 2);
                if (v.equals(stem) || (v.startsWith(stem + ":") && isPort(v.substring(stem.length() + 1)))) {
                    return true;
                }
            } else if (v.equals(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPort(String s) {
        return !s.isEmpty() && s.length() <= 5 && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static String cut(String s) {
        return s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO) + "…";
    }

    public String describe() {
        return "Host check " + (allowedHosts.isEmpty() ? "off" : allowedHosts)
                + ", Origin check " + (allowedOrigins.isEmpty() ? "off" : allowedOrigins);
    }
}
