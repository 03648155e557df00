package io.ragsearch.sim.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.cluster.TestCluster;
import io.ragsearch.sim.node.NodeAgent;
import io.ragsearch.sim.plane.ControlPlane;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Per-project access with real Kubernetes ServiceAccount tokens: the test plane's API server
 * issues them (TokenRequest, as the kubelet does for a projected token), and a search server
 * process in mode jwt checks them against that API server's JWKS, fetched with its own
 * ServiceAccount's token and the plane's CA (the endpoint wants an authenticated caller: the plane
 * does not open discovery to anonymous ones). hr-agent reads HR, security-agent security rules;
 * a token for another audience, a forged signature and alg none are refused.
 */
@ExtendWith(RealClusterExtension.class)
class ServiceAccountTokensRealPlaneIT {

    static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    static final String AUDIENCE = "ragsearch.auth-test";
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("ragsearch listening: mcp=(http://\\S+/mcp) admin=http://[^:]+:(\\d+).*");

    static ControlPlane plane;
    static KubernetesClient admin;
    /** The class's namespace: the agents' ServiceAccounts and pods. */
    static String agents;
    /** The class's node, which runs the agent pods, and where it keeps their files. */
    static NodeAgent agent;
    static Path nodeDir;
    static Process server;
    static String mcpUrl;
    static Path work;

    @BeforeAll
    static void start(TestCluster cluster) throws Exception {
        plane = cluster.plane();
        admin = cluster.admin();
        agent = cluster.agent();
        nodeDir = cluster.nodeWorkDir();
        agents = cluster.namespace();
        String search = plane.namespace("search");
        for (String sa : List.of("hr-agent", "security-agent")) {
            admin.serviceAccounts().inNamespace(agents).resource(new ServiceAccountBuilder().withNewMetadata().withName(sa).endMetadata()
                    .build()).create();
        }
        admin.serviceAccounts().inNamespace(search).resource(new ServiceAccountBuilder().withNewMetadata().withName("ragsearch")
                .endMetadata().build()).create();

        work = Files.createTempDirectory("ragsearch-auth-plane");
        // The server's own credentials for the JWKS: its ServiceAccount's token (the API server's audience) and the plane's CA.
        Path token = Files.writeString(work.resolve("token"), token(search, "ragsearch", null, 3600));
        Path ca = Files.writeString(work.resolve("ca.crt"),
                new String(Base64.getDecoder().decode(admin.getConfiguration().getCaCertData()), StandardCharsets.UTF_8));
        Path hr = Files.createDirectories(work.resolve("hr"));
        Files.writeString(hr.resolve("leave.md"), "# Leave rules\n## Article 1 (Annual leave)\nEvery employee has 25 days of annual leave.\n");
        Path sec = Files.createDirectories(work.resolve("security"));
        Files.writeString(sec.resolve("access.md"), "# Access rules\n## Article 1 (Badges)\nBadges are worn visibly at all times.\n");
        Path config = Files.writeString(work.resolve("config.yaml"), """
                projects:
                  - {name: hr, retrieval: lexical, source: {directory: %s}}
                  - {name: security, retrieval: lexical, source: {directory: %s}}
                auth:
                  mode: jwt
                  issuer: %s
                  audiences: [%s]
                  jwksUrl: %s/openid/v1/jwks
                  caFile: %s
                  tokenFile: %s
                  access:
                    - {projects: [hr], serviceAccounts: ["%s:hr-agent"]}
                    - {projects: [security], serviceAccounts: ["%s:security-agent"]}
                """.formatted(hr, sec, ISSUER, AUDIENCE, plane.server(), ca, token, agents, agents));

        ProcessBuilder pb = new ProcessBuilder("java", "-Xmx512m", "-jar", ServerJar.path().toString(), "serve", "--config", config.toString(),
                "--mcp-port", "0", "--admin-port", "0", "--bind", "127.0.0.1").redirectError(work.resolve("stderr.log").toFile());
        pb.environment().put("XDG_CACHE_HOME", work.resolve("cache").toString());
        pb.environment().remove("RAGSEARCH_AUTH_TOKEN");
        server = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        Matcher m = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    Matcher found = LISTENING.matcher(line);
                    if (found.matches()) {
                        return found;
                    }
                }
                return null;
            } catch (java.io.IOException e) {
                return null;
            }
        }).get(180, TimeUnit.SECONDS);
        assertTrue(m != null, "the server did not say it listens: " + Files.readString(work.resolve("stderr.log")));
        mcpUrl = m.group(1);
        // Ready means the API server's keys were fetched with the server's own token.
        HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + m.group(2) + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode(), ready.body());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A token the API server issues for this ServiceAccount (TokenRequest), for an audience (null: the API server's own). */
    static String token(String namespace, String serviceAccount, String audience, long seconds) {
        return admin.serviceAccounts().inNamespace(namespace).withName(serviceAccount).tokenRequest(new TokenRequestBuilder().withNewSpec()
                .withAudiences(audience == null ? List.of() : List.of(audience)).withExpirationSeconds(seconds).endSpec().build())
                .getStatus().getToken();
    }

    @Test
    void eachAgentReadsOnlyItsProjectWithItsRealToken() {
        try (McpSyncClient hr = client(token(agents, "hr-agent", AUDIENCE, 600));
             McpSyncClient sec = client(token(agents, "security-agent", AUDIENCE, 600))) {
            assertEquals(List.of("hr"), projects(hr));
            assertEquals(List.of("security"), projects(sec));
            CallToolResult found = hr.callTool(new CallToolRequest("search", Map.of("project", "hr", "query", "annual leave days")));
            assertFalse(Boolean.TRUE.equals(found.isError()), text(found));
            assertTrue(text(found).contains("25 days"), text(found));
            CallToolResult refused = hr.callTool(new CallToolRequest("search", Map.of("project", "security", "query", "badges")));
            assertTrue(Boolean.TRUE.equals(refused.isError()));
            assertEquals("unknown project 'security'; projects: hr", text(refused), "the same answer as a project that does not exist");
            CallToolResult read = sec.callTool(new CallToolRequest("read_article", Map.of("project", "hr", "document", "leave",
                    "article", "Article 1")));
            assertEquals("unknown project 'hr'; projects: security", text(read));
        }
    }

    /**
     * The agents as pods: each with its own ServiceAccount and a projected token for this service
     * (audience, 600 s), which our node agent asks of the plane's TokenRequest API bound to the pod
     * and writes where the pod mounts it, as the kubelet does. The pods run {@code ragsearch probe},
     * which reads the token file and calls the tools over HTTP; what each got is in its log. A third
     * pod's token is for another audience: refused at the door.
     */
    @Test
    void agentPodsWithProjectedTokensReadOnlyTheirProjects() throws Exception {
        long t0 = System.nanoTime();
        Path node = nodeDir;
        String nodeName = agent.node();
        try {
            admin.pods().inNamespace(agents).resource(agentPod("hr-agent", "hr-agent", AUDIENCE, nodeName, "hr", "annual leave days",
                    "security")).create();
            admin.pods().inNamespace(agents).resource(agentPod("security-agent", "security-agent", AUDIENCE, nodeName, "security",
                    "badges", "hr")).create();
            admin.pods().inNamespace(agents).resource(agentPod("stranger", "hr-agent", "another.service", nodeName, "hr", "leave",
                    "security")).create();

            List<Map<String, Object>> hr = firstRound(node, "hr-agent", 4);
            List<Map<String, Object>> sec = firstRound(node, "security-agent", 4);
            List<Map<String, Object>> stranger = firstRound(node, "stranger", 1);
            System.out.println("real plane: agent pods answered in " + (System.nanoTime() - t0) / 1_000_000 + " ms after the node agent started");
            for (List<Map<String, Object>> round : List.of(hr, sec, stranger)) {
                round.forEach(line -> System.out.println("real plane pod: " + line));
            }
            assertAgentSaw(hr, "hr", "25 days", "unknown project 'security'; projects: hr");
            assertAgentSaw(sec, "security", "worn visibly", "unknown project 'hr'; projects: security");
            assertEquals(401, stranger.get(0).get("status"), stranger.toString());
            assertTrue(String.valueOf(stranger.get(0).get("wwwAuthenticate")).contains("error=\"invalid_token\""), stranger.toString());
            assertTrue(String.valueOf(stranger.get(0).get("body")).contains("the token was issued for another audience"), stranger.toString());

            // What the node agent wrote is what the kubelet writes: the API server's token for the pod's
            // ServiceAccount, this audience, the asked lifetime, bound to this pod.
            Map<String, Object> claims = claims(Files.readString(podDir(node, "hr-agent").resolve("volumes/ragsearch-token/token")));
            assertEquals(List.of(AUDIENCE), claims.get("aud"));
            assertEquals("system:serviceaccount:" + agents + ":hr-agent", claims.get("sub"));
            assertEquals(600, ((Number) claims.get("exp")).longValue() - ((Number) claims.get("iat")).longValue());
            @SuppressWarnings("unchecked")
            Map<String, Object> kube = (Map<String, Object>) claims.get("kubernetes.io");
            @SuppressWarnings("unchecked")
            Map<String, Object> boundPod = (Map<String, Object>) kube.get("pod");
            assertEquals("hr-agent", boundPod.get("name"));
            assertEquals(admin.pods().inNamespace(agents).withName("hr-agent").get().getMetadata().getUid(), boundPod.get("uid"));
        } finally {
            admin.pods().inNamespace(agents).withGracePeriod(0).delete();
        }
    }

    private static void assertAgentSaw(List<Map<String, Object>> round, String own, String ownText, String refusal) {
        assertEquals(200, round.get(0).get("status"), round.toString());
        assertEquals(null, round.get(0).get("wwwAuthenticate"), round.toString());
        String listed = String.valueOf(round.get(1).get("text"));
        assertTrue(listed.startsWith("1 project(s):\n- " + own + ":"), listed);
        assertEquals(false, round.get(2).get("error"), round.toString());
        assertTrue(String.valueOf(round.get(2).get("text")).contains(ownText), round.toString());
        assertEquals(true, round.get(3).get("error"), round.toString());
        assertEquals(refusal, round.get(3).get("text"), "the same answer as a project that does not exist");
    }

    /** A pod as a platform team writes one (docs/security.md): its ServiceAccount, a projected token for an audience, the probe as agent. */
    private static io.fabric8.kubernetes.api.model.Pod agentPod(String name, String serviceAccount, String audience, String nodeName,
                                                                String own, String query, String other) {
        return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withNodeName(nodeName).withServiceAccountName(serviceAccount).withTerminationGracePeriodSeconds(1L)
                .addNewContainer().withName("agent").withImage("example/agent:1")
                .withArgs("probe", "--url", mcpUrl, "--token-file", "/var/run/secrets/ragsearch/token", "--every", "3",
                        "--call", "list_projects",
                        "--call", "search={\"project\":\"" + own + "\",\"query\":\"" + query + "\"}",
                        "--call", "search={\"project\":\"" + other + "\",\"query\":\"" + query + "\"}")
                .addNewVolumeMount().withName("ragsearch-token").withMountPath("/var/run/secrets/ragsearch").withReadOnly(true).endVolumeMount()
                .endContainer()
                .addNewVolume().withName("ragsearch-token").withNewProjected().addNewSource().withNewServiceAccountToken()
                .withAudience(audience).withExpirationSeconds(600L).withPath("token").endServiceAccountToken().endSource().endProjected()
                .endVolume()
                .endSpec().build();
    }

    private static Path podDir(Path node, String pod) {
        return node.resolve("pods").resolve(agents + "_" + pod);
    }

    /** The probe's first complete round in the pod's log: the door's answer, then {@code lines - 1} calls. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> firstRound(Path node, String pod, int lines) {
        Path log = podDir(node, pod).resolve("agent.log");
        return org.awaitility.Awaitility.await("pod " + pod + "'s probe to log a round of " + lines + " answers in " + log)
                .atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    if (!Files.exists(log)) {
                        return null;
                    }
                    List<Map<String, Object>> first = new java.util.ArrayList<>();
                    boolean again = false;
                    for (String line : Files.readAllLines(log)) {
                        if (line.startsWith("{")) {
                            Map<String, Object> m = JSON.readValue(line, Map.class);
                            if (Integer.valueOf(1).equals(m.get("round"))) {
                                if (m.containsKey("status") && !first.isEmpty()) {
                                    // the container ran again (as the kubelet restarts one that exited): its own first round counts
                                    again = true;
                                    first.clear();
                                }
                                first.add(m);
                            }
                        }
                    }
                    if (first.size() < lines) {
                        return null;
                    }
                    if (again) {
                        System.out.println("pod " + pod + " ran its probe more than once; its log:\n" + Files.readString(log));
                    }
                    return first;
                }, java.util.Objects::nonNull);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> claims(String jwt) throws Exception {
        return JSON.readValue(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), Map.class);
    }

    @Test
    void tokensForAnotherAudienceForgedOrUnsignedAreRefused() throws Exception {
        String apiAudience = token(agents, "hr-agent", null, 600);
        Map<String, String> answers = new java.util.LinkedHashMap<>();
        answers.put("another audience (the API server's)", apiAudience);
        answers.put("expired an hour ago (the real claims re-dated, signed with the plane's own service-account key)",
                expired(token(agents, "hr-agent", AUDIENCE, 600)));
        answers.put("forged (the real kid and claims, another key's signature)", forged(token(agents, "hr-agent", AUDIENCE, 600)));
        answers.put("alg none (the real claims)", unsigned(token(agents, "hr-agent", AUDIENCE, 600)));
        for (Map.Entry<String, String> c : answers.entrySet()) {
            HttpResponse<String> r = post(c.getValue());
            String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
            String where = c.getKey() + " → " + r.statusCode() + " " + challenge + " " + r.body();
            System.out.println("real plane: " + where);
            assertEquals(401, r.statusCode(), where);
            assertTrue(challenge.startsWith("Bearer resource_metadata=\"") && challenge.contains("error=\"invalid_token\""), where);
            assertFalse(r.body().contains(c.getValue()), where);
            if (c.getKey().startsWith("expired")) {
                assertTrue(r.body().contains("the token has expired"), where);
            }
        }
        HttpResponse<String> none = post(null);
        assertEquals(401, none.statusCode());
        assertEquals("Bearer resource_metadata=\"" + mcpUrl.replace("/mcp", "/.well-known/oauth-protected-resource/mcp") + "\"",
                none.headers().firstValue("WWW-Authenticate").orElse(""));
        System.out.println("real plane: no token → 401 " + none.headers().firstValue("WWW-Authenticate").orElse(""));
    }

    private static McpSyncClient client(String token) {
        URI uri = URI.create(mcpUrl);
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(uri.getScheme() + "://" + uri.getRawAuthority())
                .endpoint("/mcp").requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
        McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120)).build();
        c.initialize();
        return c;
    }

    @SuppressWarnings("unchecked")
    private static List<String> projects(McpSyncClient c) {
        CallToolResult r = c.callTool(new CallToolRequest("list_projects", Map.of()));
        List<Map<String, Object>> listed = (List<Map<String, Object>>) ((Map<String, Object>) r.structuredContent()).get("projects");
        return listed.stream().map(p -> (String) p.get("name")).toList();
    }

    private static String text(CallToolResult r) {
        return r.content().stream().filter(TextContent.class::isInstance).map(x -> ((TextContent) x).text()).reduce("", String::concat);
    }

    private static HttpResponse<String> post(String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(mcpUrl)).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The real token's header and claims, signed with a key the API server never had. */
    private static String forged(String real) throws Exception {
        String[] parts = real.split("\\.");
        Signature rsa = Signature.getInstance("SHA256withRSA");
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        rsa.initSign(gen.generateKeyPair().getPrivate());
        rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        return parts[0] + "." + parts[1] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
    }

    /**
     * The real token's header and claims with iat, nbf and exp an hour and more in the past, signed
     * with the key the plane's API server signs with (its {@code pki/sa.key}, EC P-256): a token
     * exactly as the API server would have issued it, long expired. TokenRequest refuses lifetimes
     * under ten minutes, so waiting for a real one to expire would cost eleven minutes with the skew.
     */
    @SuppressWarnings("unchecked")
    private static String expired(String real) throws Exception {
        String[] parts = real.split("\\.");
        Map<String, Object> claims = JSON.readValue(Base64.getUrlDecoder().decode(parts[1]), Map.class);
        long now = System.currentTimeMillis() / 1000;
        claims.put("iat", now - 4200);
        claims.put("nbf", now - 4200);
        claims.put("exp", now - 3600);
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(claims));
        Signature es256 = Signature.getInstance("SHA256withECDSAinP1363Format");
        es256.initSign(planeSigningKey());
        es256.update((parts[0] + "." + payload).getBytes(StandardCharsets.US_ASCII));
        return parts[0] + "." + payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(es256.sign());
    }

    /** The plane's service-account signing key: SEC1 ("EC PRIVATE KEY") PEM, wrapped as PKCS#8 for the JDK. */
    private static java.security.PrivateKey planeSigningKey() throws Exception {
        String pem = Files.readString(plane.stateDirectory().resolve("pki/sa.key"));
        byte[] sec1 = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        byte[] algorithm = der(0x30, concat(der(0x06, hex("2A8648CE3D0201")), der(0x06, hex("2A8648CE3D030107"))));
        byte[] pkcs8 = der(0x30, concat(new byte[] {0x02, 0x01, 0x00}, algorithm, der(0x04, sec1)));
        return java.security.KeyFactory.getInstance("EC").generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(pkcs8));
    }

    private static byte[] der(int tag, byte[] content) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 128) {
            out.write(n);
        } else if (n < 256) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n & 0xff);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] hex(String s) {
        return java.util.HexFormat.of().parseHex(s);
    }

    /** The real token's claims under a header that says alg none, without a signature. */
    private static String unsigned(String real) {
        String payload = real.split("\\.")[1];
        return Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "." + payload + ".";
    }
}
