package io.ragsearch.embed;

import ai.onnxruntime.OrtException;
import java.time.Duration;
import sun.misc.Signal;

/**
 * The process's own gate in front of every ONNX Runtime run. A JVM that starts to exit (SIGTERM,
 * say, while a pod still embeds its corpus at startup) runs ONNX Runtime's own shutdown hook,
 * which releases the native environment while a thread is inside {@code OrtSession.run}: the
 * process then dies of SIGSEGV (exit 134 and a crash log) instead of stopping. Shutdown hooks run
 * in no set order, so ours cannot go first; instead SIGTERM and SIGINT first shut this gate
 * (waiting for the runs in flight, starting no new one) and only then exit, with the status the
 * signal would have given.
 */
public final class NativeRuns {
    /** One inference step takes a second or two even on a loaded machine; a pod's grace period is 35 s. */
    static final Duration STOP_WAIT = Duration.ofSeconds(20);

    private static final RunGate PROCESS = new RunGate("the process is stopping");

    static {
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> {
                PROCESS.shut(STOP_WAIT);
                System.exit(128 + signal.getNumber());
            });
        }
    }

    private NativeRuns() {
    }

    /** Runs {@code call} unless the process is stopping (then {@link RunGate.Shut}). */
    public static <T> T run(RunGate.OrtCall<T> call) throws OrtException {
        return PROCESS.run(call);
    }
}
