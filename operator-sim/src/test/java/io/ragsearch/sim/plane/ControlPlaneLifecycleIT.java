package io.ragsearch.sim.plane;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No process of a control plane outlives the one that owns it: {@code up} stops its children when
 * its stdin ends (the harness's JVM went away, however it went), and the kernel kills them when
 * {@code up} itself is killed.
 */
class ControlPlaneLifecycleIT {

    record Started(Process up, List<ProcessHandle> children) {
    }

    static Started up(Path dir) throws Exception {
        Process p = new ProcessBuilder(ControlPlane.binary().toString(), "up", "--dir", dir.toString(), "--stop-on-stdin-eof")
                .redirectError(dir.resolve("up.log").toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertTrue(line != null && line.startsWith("ready https://127.0.0.1:"), line + " / " + Files.readString(dir.resolve("up.log")));
        List<ProcessHandle> children = p.children().toList();
        assertEquals(3, children.size(), "etcd, kube-apiserver, kube-controller-manager: " + children.stream()
                .map(c -> c.info().commandLine().orElse("?")).toList());
        return new Started(p, children);
    }

    static void allGone(List<ProcessHandle> processes) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
        while (processes.stream().anyMatch(ProcessHandle::isAlive) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        assertFalse(processes.stream().anyMatch(ProcessHandle::isAlive), "still running: " + processes.stream()
                .filter(ProcessHandle::isAlive).map(c -> c.info().commandLine().orElse("?")).toList());
    }

    @Test
    void theEndOfStdinStopsEverythingInOrder(@TempDir Path dir) throws Exception {
        Started s = up(dir);
        s.up().getOutputStream().close();
        assertTrue(s.up().waitFor(40, TimeUnit.SECONDS));
        assertEquals(0, s.up().exitValue(), Files.readString(dir.resolve("up.log")));
        allGone(s.children());
        assertFalse(Files.exists(dir.resolve("up.pid")));
    }

    @Test
    void killingUpKillsItsChildren(@TempDir Path dir) throws Exception {
        Started s = up(dir);
        s.up().destroyForcibly();
        s.up().waitFor(10, TimeUnit.SECONDS);
        allGone(s.children());
    }
}
