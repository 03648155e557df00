package io.ragsearch.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The podman command line as it works on these machines: runc rather than crun (crun cannot set
 * rlimits here), the cgroupfs manager (no systemd), and no default ulimits (raising them is not
 * permitted in this sandbox; the container keeps the current ones).
 */
final class Podman {
    /** A hung podman must not hang the build. */
    private static final long TIMEOUT_SECONDS = 180;

    private final Path containersConf;

    Podman(Path workDir) throws IOException {
        Files.createDirectories(workDir);
        containersConf = workDir.resolve("containers.conf");
        Files.writeString(containersConf, "[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = \"runc\"\ncgroup_manager = \"cgroupfs\"\n");
    }

    record Result(int exit, String out) {
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CONTAINERS_CONF", containersConf.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("podman " + String.join(" ", args) + " took more than " + TIMEOUT_SECONDS + " s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
    }

    String ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        if (r.exit() != 0) {
            throw new IOException("podman " + String.join(" ", args) + " failed (" + r.exit() + "): " + r.out());
        }
        return r.out();
    }
}
