package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.server.SearchServerApp;
import org.junit.jupiter.api.Test;

/** Bound to all interfaces, the server must answer callers that name it by a cluster address. */
class AllInterfacesBindIT {

    @Test
    void aServiceNameOrPodIpInHostIsServedNot421() throws Exception {
        try (SearchServerApp app = TestServers.startSample(TestServers.server("0.0.0.0", null, null, null))) {
            for (String host : new String[] {"ragsearch.default.svc.cluster.local:8080", "10.42.0.17:8080"}) {
                TestServers.RawResponse r = TestServers.raw(app.mcpPort(), "POST", host, TestServers.JSON_HEADERS,
                        TestServers.INITIALIZE);
                assertEquals(200, r.status(), host + ": " + r.body());
                assertTrue(r.body().contains("\"serverInfo\""), r.body());
            }
        }
    }
}
