package io.ragsearch.sim.endtoend;

import io.ragsearch.sim.cluster.HelmCli;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's one command, {@code scripts/test/kube-e2e.sh}, run as a user would: the whole loop (the
 * example Ready on our node, then its memory limit lowered and the running pods resized in place
 * and re-tuned), and up to the installed chart ({@code --until installed}: its own control plane, a
 * real Helm 4, the CRD established, the operator's pods made by the real controllers), so it
 * cannot rot; and its teardown checked: no process of its run is left, whether it succeeded or a
 * step failed.
 */
class KubeE2eScriptIT {
    private static final Pattern WORK_DIR = Pattern.compile("kube-e2e: work directory (\\S+)");
    private static final Pattern RETUNED = Pattern.compile("In-place resize: memory 1500Mi -> 1200Mi on (\\d+) pods, no restart "
            + "\\(same pod UIDs and container starts, restarts 0\\): rerank concurrency (\\d+) -> (\\d+), re-tuned ([0-9.]+) s after the edit");

    record Run(int exit, String out, String err, Path workDir) {
    }

    @Test
    void installsTheChartOnItsOwnControlPlaneAndLeavesNothingRunning() throws Exception {
        Run run = run("--until", "installed");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("API server /version gitVersion: v1.37.2"), run.out());
        assertTrue(run.out().matches("(?s).*ragsearch-operator\\s+ragsearch-system\\s+1\\s.*deployed.*"), "helm list: " + run.out());
        assertTrue(run.out().contains("Operator pods (2, made by the real controllers"), run.out());
        assertEquals(2, run.out().lines().filter(l -> l.startsWith("ragsearch-operator-") && l.contains("Pending")).count(), run.out());
        assertEquals(List.of(), processesUnder(run.workDir()), "no process of the run is left");
        assertFalse(Files.exists(run.workDir()), "its state is removed after a run that worked");
    }

    @Test
    void theWholeLoopEndsWithTheRunningPodsResizedInPlaceAndRetuned() throws Exception {
        Run run = run();
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("RagSearch handbook: rerank concurrency"), run.out());
        Matcher m = RETUNED.matcher(run.out());
        assertTrue(m.find(), "the re-tune line: " + run.out());
        assertEquals("2", m.group(1), "both pods of the example");
        int before = Integer.parseInt(m.group(2));
        int after = Integer.parseInt(m.group(3));
        assertTrue(after >= 1 && after <= before, "a lower limit never raises the concurrency: " + m.group());
        assertTrue(Double.parseDouble(m.group(4)) > 0, m.group());
        assertTrue(run.out().contains("Event Retuned: every pod runs at memory 1200 MiB with rerank concurrency " + after), run.out());
        assertEquals(List.of(), processesUnder(run.workDir()), "no process of the run is left");
        assertFalse(Files.exists(run.workDir()), "its state is removed after a run that worked");
    }

    @Test
    void aFailingStepStillTearsDownAndKeepsTheLogs() throws Exception {
        // the chart's values schema refuses this value: helm install fails after the plane is up
        Run run = run("--until", "installed", "--helm-set", "rbac.scope=everywhere");
        assertNotEquals(0, run.exit(), run.out());
        assertTrue(run.err().contains("at '/rbac/scope': value must be one of 'cluster', 'namespace'"), run.err());
        assertTrue(run.err().contains("FAILED: helm install"), run.err());
        assertEquals(List.of(), processesUnder(run.workDir()), "no process of the run is left");
        assertTrue(Files.isRegularFile(run.workDir().resolve("logs/helm-install.log")), "the logs stay for a look");
        ControlPlane.deleteTree(run.workDir());
    }

    static Run run(String... args) throws Exception {
        Path script = ControlPlane.projectRoot().resolve("scripts/test/kube-e2e.sh");
        ProcessBuilder pb = new ProcessBuilder(concat("bash", script.toString(), args));
        pb.environment().put("RAGSEARCH_TESTPLANE_BIN", ControlPlane.binary().toString());
        pb.environment().put("RAGSEARCH_HELM_BIN", HelmCli.binary().toString());
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroy();
            p.waitFor(60, TimeUnit.SECONDS);
        }
        String errText = err.get(60, TimeUnit.SECONDS);
        Matcher m = WORK_DIR.matcher(errText);
        assertTrue(m.find(), "the script names its work directory: " + errText);
        System.out.println("kube-e2e.sh " + String.join(" ", args) + " → exit " + p.exitValue() + "\n" + out + errText);
        return new Run(p.exitValue(), out, errText, Path.of(m.group(1)));
    }

    /** Live processes whose command line names this directory (the plane's etcd, API server, … all do). */
    static List<Long> processesUnder(Path dir) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(h -> cmdline(h.pid()).contains(dir.toString()))
                .map(ProcessHandle::pid).toList();
    }

    private static String cmdline(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> concat(String a, String b, String[] rest) {
        List<String> all = new java.util.ArrayList<>(List.of(a, b));
        all.addAll(List.of(rest));
        return all;
    }
}
