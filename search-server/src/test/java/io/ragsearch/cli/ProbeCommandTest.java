package io.ragsearch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code probe}'s --call: a tool name, optionally with a JSON object of arguments; anything else is refused naming the fix. */
class ProbeCommandTest {

    @Test
    void aCallIsAToolWithAnObjectOfArguments() {
        assertEquals(new ProbeCommand.Call("list_projects", Map.of()), ProbeCommand.Call.parse("list_projects"));
        assertEquals(new ProbeCommand.Call("search", Map.of("project", "hr", "query", "a=b")),
                ProbeCommand.Call.parse("search={\"project\":\"hr\",\"query\":\"a=b\"}"));
    }

    @Test
    void argumentsThatAreNoObjectAndANamelessCallAreRefused() {
        for (String bad : new String[] {"search=[1]", "search={", "search=\"x\"", "=x", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProbeCommand.Call.parse(bad), bad);
            assertTrue(e.getMessage().contains("JSON object") || e.getMessage().contains("tool name"), e.getMessage());
        }
    }

    @Test
    void aBadCallIsAUsageErrorBeforeAnythingIsSent() {
        StringWriter err = new StringWriter();
        CommandLine cli = RagSearchCli.commandLine();
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("probe", "--url", "http://127.0.0.1:9/mcp", "--token-file", "/nonexistent", "--call", "search=[1]");
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("must be a JSON object"), err.toString());
    }
}
