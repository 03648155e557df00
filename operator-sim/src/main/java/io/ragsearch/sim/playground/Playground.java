package io.ragsearch.sim.playground;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
import io.ragsearch.sim.playground.ReadyEndpoints;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The whole loop on one machine: a real control plane of its own with our node agent as its
 * kubelet ({@link RealCluster}) and the operator; the RagSearch file applied and re-applied on every save; the status printed as it
 * changes. {@link #close()} stops everything it started.
 */
public final class Playground implements AutoCloseable {

    /**
     * What to run: the RagSearch file, the server jar, ConfigMaps to create from directories.
     * {@code serverImage}: the server image archive pods run from where they
     * can (null: the plain jar).
     */
    public record Options(Path file, Path serverJar, Path serverImage, Map<String, Path> docs, Path workDir, Duration refresh) {
    }

    private final Options options;
    private final PrintStream out;
    private final RealCluster cluster;
    private final KubernetesClient client;
    private final OperatorRuntime operator;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "playground");
        t.setDaemon(true);
        return t;
    });
    private final Set<String> eventsShown = new HashSet<>();
    private String lastView = "";
    private long fileStamp = -1;
    private volatile RagSearch applied;

    /**
     * Brings up the control plane (built first if missing, which {@code out} is told about before)
     * and prepares the operator; nothing is applied yet.
     */
    public Playground(Options options, PrintStream out) throws IOException {
        this.options = options;
        this.out = out;
        cluster = RealCluster.start(options, out);
        client = cluster.client();
        operator = new OperatorRuntime(client, new HttpPodAdminClient(),
                new RagSearchReconciler.Settings(Duration.ofSeconds(2), Duration.ofSeconds(60), PodLayout.ADMIN_PORT), Set.of(),
                null, cluster.apply());
    }

    public void start() throws IOException {
        out.println("ragsearch playground\n" + cluster.describe() + """
                  reranker    builtin minilm-pair is the bundled cost stand-in: real rerank work for
                              calibration, no ranking gain, until a trained cross-encoder is configured
                  watching    %s (saved edits are applied again); Ctrl-C stops everything
                  logs        %s
                """.formatted(options.file(), cluster.logs()));
        cluster.startPods();
        operator.start();
        ticker.scheduleWithFixedDelay(this::tick, 0, options.refresh().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The RagSearch as last applied from the file, read back from the API server. */
    public RagSearch current() {
        RagSearch a = applied;
        return a == null ? null : client.resources(RagSearch.class).inNamespace(a.getMetadata().getNamespace())
                .withName(a.getMetadata().getName()).get();
    }

    public KubernetesClient client() {
        return client;
    }

    /** Every process the playground started that still runs: the pods' and, on a real plane, the plane's. */
    public List<ProcessHandle> processes() {
        return cluster.processes();
    }

    private void tick() {
        try {
            applyIfChanged();
            show();
        } catch (RuntimeException e) {
            out.println(time() + " " + e.getMessage());
        }
    }

    private void applyIfChanged() {
        long stamp;
        try {
            stamp = Files.getLastModifiedTime(options.file()).toMillis() ^ Files.size(options.file());
        } catch (IOException e) {
            if (fileStamp != -2) {
                out.println(time() + " cannot read " + options.file() + ": " + e.getMessage() + " (nothing applied)");
            }
            fileStamp = -2;
            return;
        }
        if (stamp == fileStamp) {
            return;
        }
        fileStamp = stamp;
        RagSearch r;
        try {
            r = RagSearchFile.read(options.file());
        } catch (RuntimeException e) {
            // A half-saved or broken file changes nothing: what runs stays as it was.
            out.println(time() + " not applied: " + e.getMessage());
            return;
        }
        if (r.getMetadata().getNamespace() == null) {
            r.getMetadata().setNamespace("default");
        }
        String ns = r.getMetadata().getNamespace();
        if (client.namespaces().withName(ns).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        }
        createDocs(ns);
        out.println(time() + " applied " + ns + "/" + r.getMetadata().getName() + (write(r) ? " (created)" : " (updated)"));
        applied = r;
    }

    /**
     * Creates the RagSearch or replaces its spec; true if created. A real API server refuses an
     * update whose resourceVersion the operator's status write has just moved on (409): read
     * again and retry, so a save is never lost to that race.
     */
    private boolean write(RagSearch r) {
        String ns = r.getMetadata().getNamespace();
        for (int attempt = 1; ; attempt++) {
            RagSearch existing = client.resources(RagSearch.class).inNamespace(ns).withName(r.getMetadata().getName()).get();
            try {
                if (existing == null) {
                    client.resource(r).create();
                    return true;
                }
                existing.setSpec(r.getSpec());
                client.resource(existing).update();
                return false;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    private void createDocs(String ns) {
        for (Map.Entry<String, Path> d : options.docs().entrySet()) {
            if (client.configMaps().inNamespace(ns).withName(d.getKey()).get() != null) {
                continue;
            }
            Map<String, String> data;
            try {
                data = DocsDirectory.data(d.getValue());
            } catch (IOException e) {
                throw new IllegalStateException("--docs " + d.getKey() + "=" + d.getValue() + ": " + e.getMessage(), e);
            }
            client.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(d.getKey())
                    .endMetadata().withData(data).build()).create();
            out.println(time() + " ConfigMap " + ns + "/" + d.getKey() + " created from " + d.getValue() + " (" + data.size() + " files)");
        }
    }

    private void show() {
        RagSearch r = current();
        if (r == null) {
            return;
        }
        String ns = r.getMetadata().getNamespace();
        for (Event e : client.v1().events().inNamespace(ns).list().getItems()) {
            if (eventsShown.add(e.getMetadata().getName())) {
                out.println(time() + " event " + e.getType() + " " + e.getReason() + ": " + e.getMessage());
            }
        }
        var pods = client.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, r.getMetadata().getName()).list().getItems();
        List<String> ready = ReadyEndpoints.of(client, ns, r.getMetadata().getName());
        String view = StatusView.render(r, pods) + "  MCP here: " + (ready.isEmpty() ? "no ready pod yet"
                : String.join(", ", ready.stream().map(ip -> "http://" + ip + ":" + PodLayout.MCP_PORT + "/mcp").toList())) + "\n";
        if (!view.equals(lastView)) {
            lastView = view;
            out.print(time() + " " + view);
        }
    }

    private static String time() {
        return "[" + LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + "]";
    }

    /** Stops the operator, the node agent with the pods' processes, and the control plane. */
    @Override
    public void close() {
        ticker.shutdownNow();
        long running = cluster.runningProcesses();
        String stopped = cluster.stop(operator);
        out.println(time() + " stopped: " + running + " server process(es), " + stopped);
    }
}
