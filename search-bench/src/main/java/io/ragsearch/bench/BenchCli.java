package io.ragsearch.bench;

import io.ragsearch.cli.RagSearchCli;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The development tools' command line (search-bench/target/ragsearch-bench.jar): bench, embedding, and eval with plots. */
@Command(name = "ragsearch-bench", mixinStandardHelpOptions = true, versionProvider = RagSearchCli.MavenVersion.class,
        description = "Benchmarks and plots for ragsearch; the server's own commands are in ragsearch-server.jar.",
        subcommands = {BenchCommand.class, EmbeddingBench.class, TokenizerBench.class, StartupBench.class, VectorIndexBench.class, PlottingEvalCommand.class, CommandLine.HelpCommand.class})
public final class BenchCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new BenchCli());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("ragsearch-bench: " + ex.getMessage());
            return 1;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
