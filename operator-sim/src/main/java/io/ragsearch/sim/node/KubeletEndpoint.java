package io.ragsearch.sim.node;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The kubelet's HTTPS port, as far as metrics-server needs it: {@code GET /metrics/resource}
 * (and {@code /healthz}), on the node's InternalIP 127.0.0.1 and a free port that the Node's
 * {@code status.daemonEndpoints.kubeletEndpoint} names. Its certificate is self-signed, made by
 * the JDK's keytool for this agent only (metrics-server runs with {@code --kubelet-insecure-tls},
 * as against any kubelet with a self-signed serving certificate). Nothing else of the kubelet's
 * API is served: 404.
 */
final class KubeletEndpoint implements AutoCloseable {
    static final String RESOURCE_METRICS = "/metrics/resource";
    private final HttpsServer server;

    private KubeletEndpoint(HttpsServer server) {
        this.server = server;
    }

    /** Serves {@code metrics} on 127.0.0.1 (loopback only), its key pair kept in {@code dir}. */
    static KubeletEndpoint start(Path dir, Supplier<String> metrics) throws IOException {
        SSLContext tls = selfSigned(dir);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                if (!"GET".equals(exchange.getRequestMethod())) {
                    reply(exchange, 405, "text/plain", "method not allowed\n");
                } else if (RESOURCE_METRICS.equals(path)) {
                    reply(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.get());
                } else if ("/healthz".equals(path)) {
                    reply(exchange, 200, "text/plain", "ok");
                } else {
                    reply(exchange, 404, "text/plain", "not served by the ragsearch node agent: " + path + "\n");
                }
            } catch (RuntimeException e) {
                // a counter that vanished mid-read (a pod stopping): the scraper tries again next round
                reply(exchange, 500, "text/plain", "resource metrics unavailable\n");
            }
        });
        // two threads: a scrape every few seconds from one metrics-server
        server.setExecutor(Executors.newFixedThreadPool(2, NodeAgent.daemon("kubelet-endpoint")));
        server.start();
        return new KubeletEndpoint(server);
    }

    int port() {
        return server.getAddress().getPort();
    }

    private static void reply(HttpExchange exchange, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** A new EC key pair and certificate for 127.0.0.1 (30 days), through the JDK's own keytool. */
    private static SSLContext selfSigned(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path store = dir.resolve("kubelet.p12");
        Files.deleteIfExists(store);
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        char[] password = HexFormat.of().formatHex(random).toCharArray();
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        ProcessBuilder p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "kubelet", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=ragsearch-node-agent", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "30", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass:env", "KUBELET_STORE_PASS")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        p.environment().put("KUBELET_STORE_PASS", new String(password));
        try {
            Process run = p.start();
            if (!run.waitFor(60, TimeUnit.SECONDS) || run.exitValue() != 0) {
                run.destroyForcibly();
                throw new IOException("keytool could not make the kubelet endpoint's certificate in " + dir);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, password);
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(kmf.getKeyManagers(), null, null);
            return tls;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the kubelet endpoint's certificate", e);
        } catch (GeneralSecurityException e) {
            throw new IOException("kubelet endpoint certificate: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
