package io.ragsearch.operator.cli;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.LeaderElection;
import io.ragsearch.operator.metrics.ReconcileTraces;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/** Runs the operator against the cluster of the current kubeconfig, or the in-cluster config in a pod. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the operator (the default command). Kubeconfig or in-cluster service account.")
public final class RunCommand implements Runnable {

    @Option(names = "--namespaces", split = ",", defaultValue = "${env:WATCH_NAMESPACES}",
            description = "Namespaces to watch, comma-separated (env WATCH_NAMESPACES); default: all")
    String[] namespaces;

    @Option(names = "--health-port", defaultValue = "8080",
            description = "Port of the operator's own /healthz, /readyz and /metrics (default ${DEFAULT-VALUE})")
    int healthPort;

    @Option(names = "--health-address", defaultValue = "${env:RAGSEARCH_BIND_ADDRESS:-0.0.0.0}",
            description = "Address the health port listens on (env RAGSEARCH_BIND_ADDRESS, as for the search server); "
                    + "default ${DEFAULT-VALUE}: every address of the pod's own network")
    String healthAddress;

    @Option(names = "--operator-namespace", defaultValue = "${env:POD_NAMESPACE}",
            description = "The operator's own namespace (env POD_NAMESPACE, set by the chart): NetworkPolicies open the "
                    + "admin port to the operator's pods there only; unset: any namespace")
    String operatorNamespace;

    @Option(names = "--scrape-namespace", defaultValue = "${env:METRICS_SCRAPE_NAMESPACE}",
            description = "Namespace of a metrics scraper (Prometheus) NetworkPolicies let reach the admin port")
    String scrapeNamespace;

    @Option(names = "--scrape-pod-labels", split = ",", defaultValue = "${env:METRICS_SCRAPE_POD_LABELS}",
            description = "Labels (k=v,...) of the scraper's pods")
    java.util.Map<String, String> scrapePodLabels;

    @Option(names = "--leader-election", negatable = true, defaultValue = "${env:LEADER_ELECTION:-true}", fallbackValue = "true",
            description = "Reconcile only while holding the Lease (on by default: several replicas may run). "
                    + "--no-leader-election for a single replica without Lease permissions.")
    boolean leaderElection;

    @Option(names = "--lease-namespace", defaultValue = "${env:POD_NAMESPACE}",
            description = "Namespace of the Lease (env POD_NAMESPACE); default: the service account's namespace")
    String leaseNamespace;

    @Option(names = "--identity", defaultValue = "${env:POD_NAME}",
            description = "This replica's name in the Lease (env POD_NAME); default: the host name")
    String identity;

    @Option(names = "--server-side-apply", negatable = true, defaultValue = "${env:SERVER_SIDE_APPLY:-true}",
            fallbackValue = "true",
            description = "Write with server-side apply, as a real API server expects (default). "
                    + "--no-server-side-apply for an API server without it (fabric8's mock).")
    boolean serverSideApply;

    @Override
    public void run() {
        Set<String> watched = namespaces == null ? Set.of() : Arrays.stream(namespaces)
                .map(String::strip).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
        KubernetesClient client = new KubernetesClientBuilder().build();
        checkReachable(client);
        io.ragsearch.operator.manifest.AdminAccess admin = new io.ragsearch.operator.manifest.AdminAccess(
                blankToNull(operatorNamespace), blankToNull(scrapeNamespace), scrapePodLabels);
        ReconcileTraces traces = ReconcileTraces.start(System.getenv(), OperatorVersion.current());
        OperatorRuntime operator = new OperatorRuntime(client, new HttpPodAdminClient(),
                RagSearchReconciler.Settings.defaults().withAdminAccess(admin), watched, leaderElection ? LeaderElection.inCluster(
                leaseNamespace, identity == null || identity.isBlank() ? hostName() : identity) : null,
                serverSideApply ? OperatorRuntime.Apply.SERVER_SIDE : OperatorRuntime.Apply.PLAIN, traces);
        HttpServer health = healthServer(operator::healthy, operator.metrics()::render);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.close();
            traces.close(); // after the last reconcile: its span is flushed
            health.stop(0);
            client.close();
            stopped.countDown();
        }, "shutdown"));
        operator.start();
        System.out.println("ragsearch-operator running: namespaces=" + (watched.isEmpty() ? "all" : watched)
                + " leader-election=" + (leaderElection ? "on" : "off")
                + " server-side-apply=" + (serverSideApply ? "on" : "off")
                + " health=http://" + healthAddress + ":" + healthPort + "/healthz");
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "ragsearch-operator-" + ProcessHandle.current().pid();
        }
    }

    /** Says where it looked and what to do, instead of an informer's stack trace. */
    private static void checkReachable(KubernetesClient client) {
        try {
            client.getKubernetesVersion();
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            client.close();
            throw new IllegalStateException("cannot reach the Kubernetes API server at " + client.getMasterUrl()
                    + " (" + root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage())
                    + "). Point KUBECONFIG at a cluster, or run in a pod with a service account. Without a cluster, "
                    + "`ragsearch-operator render -f FILE` prints what would be applied.");
        }
    }

    /**
     * /healthz answers while the process runs (a liveness check that depends on the API server
     * would restart the operator for someone else's outage); /readyz when informers are connected.
     */
    private HttpServer healthServer(BooleanSupplier ready, java.util.function.Supplier<String> metrics) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(healthAddress, healthPort), 0);
            server.setExecutor(Executors.newFixedThreadPool(2));
            server.createContext("/healthz", ex -> answer(ex, 200, "ok\n"));
            server.createContext("/readyz", ex -> {
                boolean ok = ready.getAsBoolean();
                answer(ex, ok ? 200 : 503, ok ? "ready\n" : "informers not connected\n");
            });
            server.createContext("/metrics", ex -> {
                ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                answer(ex, 200, metrics.get());
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on health address " + healthAddress + ":" + healthPort + ": " + e.getMessage(), e);
        }
    }

    private static void answer(com.sun.net.httpserver.HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
