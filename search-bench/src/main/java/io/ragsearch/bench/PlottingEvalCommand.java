package io.ragsearch.bench;

import io.ragsearch.cli.EvalCommand;
import picocli.CommandLine.Command;

/** `ragsearch eval` with `--sweep --plot DIR`: the gate's trade-off drawn as PNG (the server's jar has no charts). */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"ragsearch eval (see docs/eval.md), plus --plot DIR with --sweep: each set's gate trade-off as DIR/SET-gate.png.",
                "Exit status: 0 all floors met, 3 a floor not met, 1 an error."})
public final class PlottingEvalCommand extends EvalCommand {

    @Override
    protected GatePlotter plotter() {
        return GateCurveChart::write;
    }
}
