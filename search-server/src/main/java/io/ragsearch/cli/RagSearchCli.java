package io.ragsearch.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The ragsearch command line: serve, query. */
@Command(name = "ragsearch", mixinStandardHelpOptions = true, versionProvider = RagSearchCli.MavenVersion.class,
        description = "Hybrid article search over regulation-style documents, served as MCP tools.",
        subcommands = {ServeCommand.class, StdioCommand.class, QueryCommand.class, EvalCommand.class, VerifyCommand.class, ProbeCommand.class, IngestCommand.class, CalibrateCommand.class, FetchCommand.class,
                CommandLine.HelpCommand.class})
public final class RagSearchCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new RagSearchCli());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            // A person reads this: the message, not a stack trace (the log has those).
            commandLine.getErr().println("ragsearch: " + ex.getMessage());
            return 1;
        });
        return cli;
    }

    /** `ragsearch --version` prints the Maven version the jar was built as. */
    public static final class MavenVersion implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ragsearch " + io.ragsearch.server.Version.current()};
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
