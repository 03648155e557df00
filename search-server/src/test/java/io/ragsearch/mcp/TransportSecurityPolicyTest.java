package io.ragsearch.mcp;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportSecurityPolicyTest {

    @Test
    void loopbackBindsCheckHostAndAcceptTheirOwnAddress() {
        TransportSecurityPolicy own = TransportSecurityPolicy.forBind("127.0.0.5", null, null);
        assertTrue(own.allowedHosts().contains("127.0.0.5:*"), own.describe());
        assertTrue(own.allowedOrigins().contains("http://127.0.0.5:*"), own.describe());
        assertTrue(own.allowedHosts().contains("localhost:*"), own.describe());

        assertEquals(List.of("localhost:*", "127.0.0.1:*", "[::1]:*"),
                TransportSecurityPolicy.forBind("127.0.0.1", null, null).allowedHosts());
        assertTrue(TransportSecurityPolicy.forBind("::1", null, null).allowedHosts().contains("[::1]:*"));
    }

    @Test
    void originIsCheckedOnEveryBindAndNullIsRefused() {
        for (String bind : new String[] {"0.0.0.0", "127.0.0.1", "10.1.2.3"}) {
            TransportSecurityPolicy p = TransportSecurityPolicy.forBind(bind, null, null);
            assertEquals(403, p.check("search.example:8080", "http://attacker.example").orElseThrow().status(), bind);
            assertEquals(403, p.check("search.example:8080", "null").orElseThrow().status(), bind + ": Origin null");
            assertTrue(p.check("localhost:8080", "http://localhost:3000").isEmpty(), bind);
            assertTrue(p.check("localhost:8080", "http://localhost").isEmpty(), bind + ": no port");
            assertTrue(p.check("localhost:8080", null).isEmpty(), bind + ": cluster clients send no Origin");
        }
        TransportSecurityPolicy any = TransportSecurityPolicy.forBind("0.0.0.0", null, List.of("*"));
        assertTrue(any.check("x", "http://anything.example").isEmpty(), "* turns the check off explicitly");
        TransportSecurityPolicy configured = TransportSecurityPolicy.forBind("0.0.0.0", null, List.of("https://app.example"));
        assertTrue(configured.check("x", "https://app.example").isEmpty());
        assertEquals(403, configured.check("x", "https://app.example.evil").orElseThrow().status());
        assertEquals(403, configured.check("x", "https://app.example:8443").orElseThrow().status(), "exact unless :*");
    }

    @Test
    void hostIsCheckedWhereTheNamesAreKnown() {
        TransportSecurityPolicy loopback = TransportSecurityPolicy.forBind("127.0.0.1", null, null);
        assertEquals(421, loopback.check("evil.example:8080", null).orElseThrow().status());
        assertEquals(421, loopback.check(null, null).orElseThrow().status());
        assertEquals(421, loopback.check("localhost:80x", null).orElseThrow().status(), "a port is digits");
        assertTrue(loopback.check("LOCALHOST:8080", null).isEmpty(), "names are case-insensitive");
        assertTrue(TransportSecurityPolicy.forBind("0.0.0.0", null, null).check("10.42.0.17:8080", null).isEmpty(),
                "on all interfaces a pod IP or Service name is served");
        String longOrigin = "http://" + "a".repeat(10_000);
        assertTrue(loopback.check("localhost:1", longOrigin).orElseThrow().message().length() < 200, "echo is cut");
    }

    @Test
    void otherBindsLeaveTheHostCheckOffUnlessConfigured() {
        assertEquals(List.of(), TransportSecurityPolicy.forBind("0.0.0.0", null, null).allowedHosts());
        assertEquals(List.of("search.example:*"),
                TransportSecurityPolicy.forBind("0.0.0.0", List.of("search.example:*"), null).allowedHosts());
        assertEquals(List.of(), TransportSecurityPolicy.forBind("127.0.0.5", List.of("*"), null).allowedHosts());
    }
}
