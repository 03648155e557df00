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
    void otherBindsLeaveTheChecksOffUnlessConfigured() {
        assertEquals(List.of(), TransportSecurityPolicy.forBind("0.0.0.0", null, null).allowedHosts());
        assertEquals(List.of("search.example:*"),
                TransportSecurityPolicy.forBind("0.0.0.0", List.of("search.example:*"), null).allowedHosts());
        assertEquals(List.of(), TransportSecurityPolicy.forBind("127.0.0.5", List.of("*"), null).allowedHosts());
    }
}
