package io.ragsearch.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.mcp.TestServers;
import io.ragsearch.server.SearchServerApp;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The runner as a library, the way a server will call it in process: no command line, records back. */
class VerifierIT {

    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).resolve("../eval/verify-handbook.yaml").normalize();

    @Test
    void aServerComparedWithItselfPassesWithoutADifference() throws Exception {
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", 2, 16, null))) {
            String url = "http://127.0.0.1:" + app.mcpPort() + "/mcp";
            Target self = Target.of(url, "http://127.0.0.1:" + app.adminPort(), null);
            VerifyReport r = new Verifier(Duration.ofSeconds(20)).run(ChecksFile.load(EXAMPLE), self, self);
            assertTrue(r.allPassed(), VerifyText.render(r));
            assertEquals(11, r.passed());
            assertEquals(0, r.differences(), VerifyText.render(r));
            CheckResult first = r.checks().get(0);
            assertEquals("annual-leave", first.id());
            assertEquals(first.baseline().observed(), first.candidate().observed());
            assertNull(first.difference());
            assertTrue(r.seconds() > 0 && r.seconds() < 60, "seconds " + r.seconds());
        }
    }

    @Test
    void theAdminAddressIsTheMcpPortPlusOneUnlessGiven() {
        assertEquals(URI.create("http://10.0.0.7:8081"), Target.of("http://10.0.0.7:8080/mcp", null, null).adminUrl());
        assertEquals(URI.create("http://h:9000"), Target.of("http://10.0.0.7:8080/mcp", "http://h:9000", null).adminUrl());
        assertNull(Target.of("http://search.example/mcp", null, null).adminUrl());
        assertTrue(assertThrows(VerifyException.class, () -> Target.of("http://h:1/mcp", "h:9000", null)).getMessage()
                .contains("admin URL must be an http(s) address"));
        assertThrows(VerifyException.class, () -> new Verifier(Duration.ZERO));
    }
}
