package io.ragsearch.cli;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.server.StdioServer;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** MCP over standard input/output for a desktop agent that starts the server itself. */
@Command(name = "stdio", mixinStandardHelpOptions = true,
        description = "Serve the projects over MCP 2026-07-28 on standard input and output (for a desktop agent that "
                + "starts this process); logs go to standard error. Ends when standard input closes.")
final class StdioCommand implements Callable<Integer> {

    @Mixin
    ProjectOptions projects;

    @Override
    public Integer call() throws Exception {
        // Standard output carries the protocol only: anything else a library prints goes to standard error.
        PrintStream protocol = System.out;
        System.setOut(System.err);
        ServerEnvironment env = ServerEnvironment.read(System.getenv());
        StdioServer.run(projects.resolve(env), env, System.in, protocol);
        return 0;
    }
}
