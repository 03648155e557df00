package io.ragsearch.verification;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which servers a verification may use as its baseline: the list in {@code RAGSEARCH_VERIFY_BASELINES}
 * (comma-separated; the operator sets it on a candidate pod to the serving Service of the same
 * RagSearch). The run sends this server's bearer token to its baseline, so a baseline off the list
 * is refused before anything is sent; an empty list refuses every baseline.
 *
 * <p>An entry is a host name ({@code handbook.search.svc}), an IP address ({@code 10.0.0.7},
 * {@code [fd00::1]}) or a CIDR block ({@code 10.0.0.0/24}), each optionally with {@code :port}
 * (names and addresses only). Names match names exactly (case-insensitive, a trailing dot ignored)
 * and are never resolved here; addresses and blocks match only an address written in the URL. An
 * address is recognised only in its canonical form (dotted decimal, or IPv6 in brackets), so
 * {@code 0x7f.1} or {@code 2130706433} is a name, and no name is on a list by accident.
 */
public final class BaselinePolicy {

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");
    private static final Pattern PORT = Pattern.compile("[1-9]\\d{0,4}");

    private sealed interface Entry permits Name, Block {
    }

    /** A host name or an address (an address is a block of its full length), and a port or -1 for any. */
    private record Name(String host, int port) implements Entry {
    }

    private record Block(byte[] network, int prefix, int port) implements Entry {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest) & 0xFF;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Entry> entries;
    private final String written;

    private BaselinePolicy(List<Entry> entries, String written) {
        this.entries = entries;
        this.written = written;
    }

    /** No baseline allowed. */
    public static BaselinePolicy none() {
        return new BaselinePolicy(List.of(), "");
    }

    /**
     * Reads a comma-separated list; null or blank is the empty list.
     *
     * @throws IllegalArgumentException naming the entry that is no host name, address or block
     */
    public static BaselinePolicy parse(String list) {
        if (list == null || list.isBlank()) {
            return none();
        }
        List<Entry> entries = new ArrayList<>();
        for (String raw : list.split(",", -1)) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            entries.add(entry(entry));
        }
        return new BaselinePolicy(List.copyOf(entries), list.strip());
    }

    private static Entry entry(String entry) {
        String e = entry.toLowerCase(Locale.ROOT);
        int slash = e.indexOf('/');
        if (slash >= 0) {
            String address = e.substring(0, slash);
            if (address.startsWith("[") && address.endsWith("]")) {
                address = address.substring(1, address.length() - 1);
            }
            byte[] network = literal(address).orElseThrow(() -> bad(entry));
            int prefix;
            try {
                prefix = Integer.parseInt(e.substring(slash + 1));
            } catch (NumberFormatException ex) {
                throw bad(entry);
            }
            if (prefix < 0 || prefix > network.length * 8) {
                throw bad(entry);
            }
            return new Block(network, prefix, -1);
        }
        String host = e;
        int port = -1;
        if (e.startsWith("[")) {
            int close = e.indexOf(']');
            if (close < 0) {
                throw bad(entry);
            }
            host = e.substring(1, close);
            String tail = e.substring(close + 1);
            if (!tail.isEmpty()) {
                port = port(tail, entry);
            }
            byte[] address = literal(host).orElseThrow(() -> bad(entry));
            return new Block(address, address.length * 8, port);
        }
        int colon = e.lastIndexOf(':');
        if (colon >= 0) {
            host = e.substring(0, colon);
            port = port(e.substring(colon), entry);
        }
        Optional<byte[]> address = literal(host);
        if (address.isPresent()) {
            return new Block(address.get(), address.get().length * 8, port);
        }
        host = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (host.length() > 253 || !NAME.matcher(host).matches()) {
            throw bad(entry);
        }
        return new Name(host, port);
    }

    private static int port(String tail, String entry) {
        if (!tail.startsWith(":") || !PORT.matcher(tail.substring(1)).matches() || Integer.parseInt(tail.substring(1)) > io.ragsearch.contract.settings.Bounds.PORT_MAX) {
            throw bad(entry);
        }
        return Integer.parseInt(tail.substring(1));
    }

    private static IllegalArgumentException bad(String entry) {
        return new IllegalArgumentException("'" + (entry.length() > 100 ? entry.substring(0, 100) + "…" : entry)
                + "' is no host name, IP address or CIDR block (such as handbook.search.svc, 10.0.0.7:8080 or 10.0.0.0/24)");
    }

    /** The bytes of an address written canonically, without any lookup; empty for anything else. */
    private static Optional<byte[]> literal(String host) {
        if (!IPV4.matcher(host).matches() && !(host.contains(":") && host.matches("[0-9a-f:.]+"))) {
            return Optional.empty();
        }
        try {
            // Only literals reach this point: getByName parses them without asking a resolver.
            return Optional.of(InetAddress.getByName(host).getAddress());
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** True when no baseline is allowed. */
    public boolean empty() {
        return entries.isEmpty();
    }

    /** The list as configured, for messages. */
    public String describe() {
        return written.isEmpty() ? "(none)" : written;
    }

    /**
     * Why this address may not be a baseline, or empty when it may.
     *
     * @param address an http(s) URI (already parsed)
     */
    public Optional<String> refusal(URI address) {
        if (address.getRawUserInfo() != null) {
            return Optional.of("a baseline address may not carry user information");
        }
        String scheme = address.getScheme() == null ? "" : address.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("a baseline must be an http(s) address");
        }
        String host = address.getHost() == null ? "" : address.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        host = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        int port = address.getPort() >= 0 ? address.getPort() : scheme.equals("https") ? 443 : 80;
        Optional<byte[]> literal = literal(host);
        for (Entry entry : entries) {
            boolean hostMatches = entry instanceof Name n ? literal.isEmpty() && n.host().equals(host)
                    : literal.isPresent() && ((Block) entry).contains(literal.get());
            int wanted = entry instanceof Name n ? n.port() : ((Block) entry).port();
            if (hostMatches && (wanted < 0 || wanted == port)) {
                return Optional.empty();
            }
        }
        return Optional.of(entries.isEmpty()
                ? "no baseline is allowed on this server: the operator names the allowed ones in RAGSEARCH_VERIFY_BASELINES"
                : "this baseline is not on the allowed list (RAGSEARCH_VERIFY_BASELINES)");
    }
}
