package io.ragsearch.operator.cli;

import io.ragsearch.operator.file.RagSearchFileException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** ragsearch-operator: runs the operator (default), or renders what it would apply. */
@Command(name = "ragsearch-operator", mixinStandardHelpOptions = true, versionProvider = OperatorVersion.class,
        description = "Kubernetes operator for RagSearch resources: MCP search services with a measured rerank concurrency.",
        subcommands = {RunCommand.class, RenderCommand.class, CommandLine.HelpCommand.class})
public final class OperatorCli implements Runnable {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new OperatorCli());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            // A person reads this: the message, not a stack trace.
            commandLine.getErr().println("ragsearch-operator: " + ex.getMessage());
            return ex instanceof UsageProblem || ex instanceof RagSearchFileException ? 2 : 1;
        });
        return cli;
    }

    /** Without a subcommand: run the operator, as the chart's Deployment does. */
    @Override
    public void run() {
        new CommandLine(new RunCommand()).execute();
    }

    /** Bad input from the person at the terminal (exit code 2). */
    static final class UsageProblem extends RuntimeException {
        UsageProblem(String message) {
            super(message);
        }
    }
}
