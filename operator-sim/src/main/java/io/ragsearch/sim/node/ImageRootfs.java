package io.ragsearch.sim.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A container image's root filesystem unpacked on this machine, with what its configuration
 * says about running it (entrypoint, environment, user). Read from a docker-archive tarball —
 * what the build writes (search-server/target/image.tar) and `podman save` / `docker save`
 * give — and unpacked once per image (by its config digest) below a cache directory, so every
 * pod and every later run share one read-only copy.
 */
record ImageRootfs(Path root, String image, List<String> entrypoint, Map<String, String> env, String user) {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Unpacking the server image (≈ 550 MB) takes seconds; a stuck tar must not hang a test run. */
    private static final long TAR_TIMEOUT_MINUTES = 5;

    /** Unpacks {@code imageTar} below {@code cacheDir} unless an earlier run did. */
    static ImageRootfs unpack(Path imageTar, Path cacheDir) throws IOException {
        if (!Files.isRegularFile(imageTar)) {
            throw new IOException("image archive not found: " + imageTar);
        }
        Path staging = Files.createTempDirectory(Files.createDirectories(cacheDir), "unpack-");
        try {
            // The whole archive once: its layers are read from here, then deleted with it.
            tar(staging, "-xf", imageTar.toString());
            JsonNode manifest = JSON.readTree(Files.readString(staging.resolve("manifest.json"), StandardCharsets.UTF_8));
            if (!manifest.isArray() || manifest.size() != 1) {
                throw new IOException(imageTar + ": a docker-archive with exactly one image expected");
            }
            JsonNode entry = manifest.get(0);
            String configName = entry.path("Config").asText();
            List<String> layers = new ArrayList<>();
            entry.path("Layers").forEach(l -> layers.add(l.asText()));
            if (configName.isEmpty() || layers.isEmpty()) {
                throw new IOException(imageTar + ": manifest.json names no config or no layers");
            }
            byte[] configBytes = Files.readAllBytes(staging.resolve(configName));
            JsonNode config = JSON.readTree(configBytes);
            // The config's digest is the image id: Jib names the file config.json whatever the image.
            String id = sha256(configBytes);
            String image = entry.path("RepoTags").path(0).asText("unnamed");
            Path root = cacheDir.resolve("rootfs-" + id.substring(0, Math.min(24, id.length())));
            if (!Files.isRegularFile(root.resolve(".complete"))) {
                unpackLayers(imageTar, staging, layers, root);
            }
            JsonNode c = config.path("config");
            List<String> entrypoint = new ArrayList<>();
            c.path("Entrypoint").forEach(e -> entrypoint.add(e.asText()));
            if (entrypoint.isEmpty()) {
                throw new IOException(image + ": the image has no entrypoint");
            }
            Map<String, String> env = new LinkedHashMap<>();
            c.path("Env").forEach(e -> {
                String kv = e.asText();
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            });
            return new ImageRootfs(root, image, List.copyOf(entrypoint), Map.copyOf(env), c.path("User").asText(""));
        } finally {
            deleteTree(staging);
        }
    }

    /** Layers in order into a fresh directory, which becomes the root only when complete. */
    private static void unpackLayers(Path imageTar, Path staging, List<String> layers, Path root) throws IOException {
        Path fresh = Files.createTempDirectory(root.getParent(), "rootfs-");
        for (String layer : layers) {
            Path layerFile = staging.resolve(layer);
            // -z only for gzip: a docker-archive from podman holds plain tar layers.
            String flags = isGzip(layerFile) ? "-xzf" : "-xf";
            tar(fresh, "--numeric-owner", "-p", flags, layerFile.toString());
            applyWhiteouts(fresh);
            Files.delete(layerFile);
        }
        Files.writeString(fresh.resolve(".complete"), imageTar + "\n");
        if (Files.exists(root)) {
            deleteTree(root);
        }
        Files.move(fresh, root);
    }

    /** OCI whiteouts: {@code .wh.NAME} removes NAME of a lower layer, {@code .wh..wh..opq} a directory's old entries. */
    private static void applyWhiteouts(Path root) throws IOException {
        List<Path> marks;
        try (var walk = Files.walk(root)) {
            marks = walk.filter(p -> p.getFileName() != null && p.getFileName().toString().startsWith(".wh.")).toList();
        }
        for (Path mark : marks) {
            String name = mark.getFileName().toString();
            if (name.equals(".wh..wh..opq")) {
                Files.delete(mark);
            } else {
                deleteTree(mark.resolveSibling(name.substring(4)));
                Files.delete(mark);
            }
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static boolean isGzip(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }

    private static void tar(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("tar", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(TAR_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException("tar did not finish within " + TAR_TIMEOUT_MINUTES + " minutes: " + command);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unpacking the image", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.exitValue() != 0) {
            throw new IOException("tar " + String.join(" ", args) + " failed: " + out);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
