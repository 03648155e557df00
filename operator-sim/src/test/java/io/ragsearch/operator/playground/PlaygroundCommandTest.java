package io.ragsearch.operator.playground;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The playground's command line for the control plane: the default, both values, and a bad one. */
class PlaygroundCommandTest {

    @Test
    void theRealControlPlaneIsTheDefault() {
        CommandLine cli = PlaygroundCommand.commandLine();
        cli.parseArgs("-f", "examples/ragsearch.yaml");
        PlaygroundCommand command = cli.getCommand();
        assertEquals(ControlPlaneKind.REAL, command.options(Path.of("work")).controlPlane());
    }

    @Test
    void bothValuesAreRead() {
        for (ControlPlaneKind kind : ControlPlaneKind.values()) {
            CommandLine cli = PlaygroundCommand.commandLine();
            cli.parseArgs("-f", "examples/ragsearch.yaml", "--control-plane", kind.label());
            assertEquals(kind, ((PlaygroundCommand) cli.getCommand()).controlPlane);
        }
        assertEquals("stand-in", ControlPlaneKind.STAND_IN.label());
    }

    @Test
    void anUnknownControlPlaneIsAUsageErrorThatNamesTheChoices() {
        CommandLine cli = PlaygroundCommand.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute("-f", "examples/ragsearch.yaml", "--control-plane", "foo");
        assertEquals(2, exit, err.toString());
        String message = err.toString().lines().findFirst().orElse("");
        assertTrue(message.startsWith("Invalid value for option '--control-plane'"), message);
        assertTrue(message.contains("'foo' is not a control plane: use real (a Kubernetes control plane built from Go modules, "
                + "with our node agent as its kubelet) or stand-in (fabric8's mock API server in this JVM"), message);
        assertTrue(err.toString().contains("--control-plane=real|stand-in"), "the usage follows: " + err);
    }
}
