package io.ragsearch.image;

import static org.awaitility.Awaitility.await;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.ragsearch.mcp.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image the build made (jib:buildTar), run as a pod would run it: read-only root with a
 * tmpfs /tmp, a 1500 MiB memory limit, the image's own user and entrypoint. It must start,
 * calibrate under its cgroup and answer an MCP search.
 */
class ServerImageIT {
    static final Path IMAGE_TAR = Path.of(required("image.tar"));
    static final String IMAGE = System.getProperty("image.ref");
    static final String CONTAINER = "ragsearch-image-it-" + ProcessHandle.current().pid();
    static final Duration STARTUP = Duration.ofSeconds(180);

    static final JsonMapper JSON = JsonMapper.builder().build();
    static Podman podman;
    static int mcpPort;
    static int adminPort;

    @BeforeAll
    static void startContainer() throws Exception {
        podman = new Podman(Path.of(required("image.work")));
        podman.ok("load", "--quiet", "-i", IMAGE_TAR.toString());
        mcpPort = freePort();
        adminPort = freePort();
        // Host network on loopback only: the test reaches it at 127.0.0.1, nothing else can.
        podman.ok("run", "-d", "--name", CONTAINER, "--network", "host", "--read-only", "--tmpfs", "/tmp:rw,size=1g",
                "--memory", "1500m", "-e", "RAGSEARCH_BIND_ADDRESS=127.0.0.1",
                // The heap flags the operator gives a pod at this limit (HeapSize).
                "-e", "JAVA_TOOL_OPTIONS=-Xmx250m", IMAGE,
                "serve", "--mcp-port", Integer.toString(mcpPort), "--admin-port", Integer.toString(adminPort));
        await().atMost(STARTUP).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (!podman.ok("inspect", CONTAINER, "--format", "{{.State.Running}}").equals("true")) {
                throw new AssertionError("the container did not start:\n" + podman.run("logs", CONTAINER).out());
            }
            // Ready, not just started: the article vectors are embedded after the startup probe passes.
            return status("/readyz") == 200;
        });
    }

    @AfterAll
    static void removeContainer() throws Exception {
        if (podman != null) {
            podman.run("rm", "-f", "-t", "5", CONTAINER);
        }
    }

    @Test
    void servesAnMcpSearchFromItsPackagedCorpus() {
        McpSyncClient client = TestServers.client(mcpPort);
        try {
            CallToolResult r = client.callTool(new CallToolRequest("search",
                    Map.of("project", "handbook-en", "query", "how many days of annual leave do I get")));
            assertFalse(Boolean.TRUE.equals(r.isError()), r.toString());
            String text = ((TextContent) r.content().get(0)).text();
            assertTrue(text.contains("leave"), text);
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void carriesTheBuiltInMultilingualModelAndServesKoreanHybrid() throws Exception {
        JsonNode info = JSON.readTree(get("/info").body());
        assertEquals("multilingual-e5-small", info.get("models").get(0).get("name").asString(), info.toString());
        for (JsonNode p : info.get("projects")) {
            assertEquals("hybrid", p.get("retrieval").asString(), "the model reads both sample languages: " + p);
        }
    }

    @Test
    void calibratesUnderItsOwnCgroupLimit() throws Exception {
        JsonNode calibration = JSON.readTree(get("/calibration").body());
        assertEquals(1500L * 1024 * 1024, calibration.get("memoryLimitBytes").asLong(), calibration.toString());
        assertTrue(calibration.get("method").asString().startsWith("cgroup"), calibration.toString());
        assertTrue(calibration.get("methodReason").asString().contains("heap charged at its reservation"),
                calibration.toString());
        System.out.printf(java.util.Locale.ROOT, "[image] calibration at 1500 MiB: resident=%d MiB perRun=%d MiB reranker=%s%n",
                calibration.get("residentBytes").asLong() >> 20, calibration.get("perRunBytes").asLong() >> 20,
                calibration.get("reranker").asString());
    }

    @Test
    void runsAsItsNonRootUserWithTheOciLabelsAndTheCliAsEntrypoint() throws Exception {
        JsonNode config = JSON.readTree(podman.ok("image", "inspect", IMAGE)).get(0).get("Config");
        assertEquals("10001:0", config.get("User").asString());
        assertTrue(config.get("Env").toString().contains("LANG=C.UTF-8"), config.toString());
        JsonNode labels = config.get("Labels");
        assertEquals(System.getProperty("image.version"), labels.get("org.opencontainers.image.version").asString());
        assertTrue(labels.has("org.opencontainers.image.revision") && labels.has("org.opencontainers.image.source"), labels.toString());
        List<String> entrypoint = new java.util.ArrayList<>();
        config.get("Entrypoint").forEach(e -> entrypoint.add(e.asString()));
        assertEquals("java", entrypoint.get(0));
        assertEquals("io.ragsearch.cli.RagSearchCli", entrypoint.get(entrypoint.size() - 1), "the CLI; pods pass serve");
        assertTrue(entrypoint.contains("-XX:+ExitOnOutOfMemoryError"), entrypoint.toString());
        assertEquals("10001", podman.ok("exec", CONTAINER, "id", "-u"));
        Podman.Result write = podman.run("exec", CONTAINER, "touch", "/app/x");
        assertTrue(write.exit() != 0 && write.out().contains("Read-only file system"), write.out());
    }

    /**
     * The image runs on Linux x86-64 only: every native library in its jars is that platform's
     * (ONNX Runtime, DJL's tokenizers and JNA ship every platform's; the image build keeps one),
     * and the ones the server loads are there. The searches above ran on exactly these files.
     */
    @Test
    void carriesTheLinuxX8664NativeLibrariesOnly() throws Exception {
        Path app = Path.of(required("image.work")).resolve("app-" + ProcessHandle.current().pid());
        podman.ok("cp", CONTAINER + ":/app", app.toString());
        List<String> natives = new java.util.ArrayList<>();
        try (var files = java.nio.file.Files.walk(app)) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).toList()) {
                try (var zip = new java.util.zip.ZipFile(jar.toFile())) {
                    zip.stream().map(java.util.zip.ZipEntry::getName).filter(n -> n.matches(".*\\.(so|dll|dylib|jnilib|a)$") || n.contains(".dSYM/"))
                            .forEach(n -> natives.add(app.relativize(jar) + "!" + n));
                }
            }
        }
        List<String> foreign = natives.stream().filter(n -> !n.matches(".*/(linux-x64|linux-x86_64|linux-x86-64)/.*")).toList();
        assertEquals(List.of(), foreign, "natives of other platforms in the image");
        for (String needed : List.of("ai/onnxruntime/native/linux-x64/libonnxruntime.so", "ai/onnxruntime/native/linux-x64/libonnxruntime4j_jni.so",
                "native/lib/linux-x86_64/cpu/libtokenizers.so", "com/sun/jna/linux-x86-64/libjnidispatch.so")) {
            assertEquals(1, natives.stream().filter(n -> n.endsWith("!" + needed)).count(), needed + " once in " + natives);
        }
        System.out.printf("ServerImageIT: %d native libraries in the image, all linux-x86-64%n", natives.size());
    }

    private static int status(String path) {
        try {
            return get(path).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Set by the pom (Failsafe's systemPropertyVariables): the artifacts the build declared, not paths guessed from here. */
    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set: run this test through mvn -Pimages verify");
        }
        return value;
    }
}
