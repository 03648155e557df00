package io.ragsearch.sim.endtoend;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.PodMetrics;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.sim.cluster.Figures;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.Repeating;
import io.ragsearch.sim.cluster.SearchTraffic;
import io.ragsearch.sim.cluster.TestCluster;
import io.ragsearch.sim.node.EndpointReadiness;
import io.ragsearch.sim.plane.MetricsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A RagSearch scaled by a HorizontalPodAutoscaler on the real control plane: the operator owns
 * the autoscaler (spec.autoscaling), the real HPA controller in the controller manager reads the
 * pods' CPU from the real metrics-server, which scrapes our node agent's kubelet endpoint (the
 * pods' cgroups). Search load from this test raises the pods' CPU: the autoscaler writes the
 * RagSearch's spec.replicas through its scale subresource, the operator follows into the
 * Deployment; the load stops and it scales back after its (short) stabilization window. The PDB
 * keeps its minimum, no search fails, and the operator writes the number only from spec.replicas.
 */
@ExtendWith(RealClusterExtension.class)
class HorizontalAutoscalingIT {
    static final String NAME = "handbook";
    static final Duration SAMPLE = Duration.ofSeconds(2);
    /** Searching clients during the load: each its own thread and MCP connection, back to back. */
    static final int LOAD_CLIENTS = 4;

    static final String SPEC = """
            apiVersion: ragsearch.io/v1alpha1
            kind: RagSearch
            metadata: {name: handbook}
            spec:
              image: ragsearch/search-server:test
              resources: {memory: 1500Mi, cpu: 1}
              models: {reranker: {builtin: minilm-pair}}
              # the load is a burst beyond one rerank permit per pod: searches wait for a permit
              # (the default 1 s wait answered 390 of 886 "busy, retry" in a run on 2 busy cores)
              rerank: {queueTimeoutMillis: 30000}
              projects:
                - {name: handbook, description: handbook, language: en, source: {configMap: handbook-docs}}
              podDisruptionBudget: {minAvailable: 1}
              autoscaling:
                minReplicas: 2
                maxReplicas: 3
                targetCPUUtilizationPercentage: 30
                scaleDownStabilizationSeconds: 30
            """;

    static final Figures FIGURES = new Figures("HPA E2E");
    static MetricsServer metrics;
    KubernetesClient admin;
    String ns;

    /** One observation of the loop, every {@link #SAMPLE}. */
    record Sample(double t, int specReplicas, int deploymentReplicas, int readyServing, Integer cpuPercent, Integer pdbHealthy) {
    }

    /** The metrics-server scrapes the class's node (its kubelet endpoint), registered by the extension before this runs. */
    @BeforeAll
    static void startMetricsServer(TestCluster cluster) {
        long t = System.nanoTime();
        metrics = MetricsServer.start(cluster.plane(), System.out);
        FIGURES.note("metrics-server up and %s Available: %.1f s; node agent: memory limits %s, kubelet endpoint on 127.0.0.1:%d",
                "v1beta1.metrics.k8s.io", since(t), cluster.agent().memoryLimits(), cluster.agent().kubeletPort());
    }

    @AfterAll
    static void stopMetricsServer() {
        if (metrics != null) {
            metrics.close();
        }
    }

    @Test
    void theAutoscalerScalesTheRagSearchUpUnderSearchLoadAndBackWithoutAFailedSearch(TestCluster cluster) throws Exception {
        admin = cluster.admin();
        ns = cluster.namespace();
        cluster.startOperator(Duration.ofSeconds(30));
        cluster.handbookDocs("handbook-docs");
        long applied = System.nanoTime();
        cluster.create(SPEC);

        // the autoscaler's minimum, Ready, and the metrics API reporting both pods from our node's cgroups
        await().atMost(Duration.ofMinutes(12)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            RagSearch now = get();
            return specReplicas(now) == 2 && now.getStatus() != null && Conditions.isTrue(now.getStatus().conditions, Conditions.READY)
                    && readyServing().size() == 2;
        });
        FIGURES.note("apply → Ready at the autoscaler's minReplicas 2 (spec.replicas defaulted to 1, raised by the HPA): %.1f s", since(applied));
        HorizontalPodAutoscaler hpa = autoscaler();
        assertEquals("RagSearch", hpa.getSpec().getScaleTargetRef().getKind());
        List<PodMetrics> top = await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> admin.top().pods().metrics(ns).getItems(), m -> m.size() == 2);
        for (PodMetrics m : top) {
            long bytes = m.getContainers().get(0).getUsage().get("memory").getNumericalAmount().longValue();
            FIGURES.note("metrics API (kubectl top pods): %s cpu %s memory %d MiB", m.getMetadata().getName(),
                    m.getContainers().get(0).getUsage().get("cpu"), bytes >> 20);
            assertTrue(bytes > 100L << 20, "a search server's working set is far above 100 MiB: " + bytes);
        }
        // the autoscaler reads them: a current CPU utilization in its status
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertTrue(
                cpuPercent(autoscaler()) != null, () -> "the autoscaler reads no CPU: " + io.fabric8.kubernetes.client.utils.Serialization
                        .asJson(autoscaler().getStatus()) + "; events: " + admin.v1().events().inNamespace(ns).list().getItems().stream()
                        .map(e -> e.getReason() + ": " + e.getMessage()).distinct().toList()));
        // idle before the load: the start's embedding and calibration may have looked like load for a moment
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Integer cpu = cpuPercent(autoscaler());
            return cpu != null && cpu < 30 && specReplicas() == 2
                    && admin.pods().inNamespace(ns).withLabels(Labels.selector(NAME)).list().getItems().size() == 2;
        });
        FIGURES.note("idle: HPA sees %d %% CPU of the request, desired %d", cpuPercent(autoscaler()), autoscaler().getStatus().getDesiredReplicas());

        List<Sample> samples = new CopyOnWriteArrayList<>();
        long t0 = System.nanoTime();
        Repeating sampler = Repeating.every(SAMPLE, "hpa-sampler", () -> samples.add(sample(t0)));
        List<SearchTraffic> load = new ArrayList<>();
        try {
            long loadStart = System.nanoTime();
            for (int i = 0; i < LOAD_CLIENTS; i++) {
                SearchTraffic client = new SearchTraffic(this::readyServingAddresses);
                client.keepSearching("handbook", i % 2 == 0 ? "how many days of annual leave do I get" : "expense report deadline");
                load.add(client);
            }
            await().atMost(Duration.ofMinutes(12)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> specReplicas() == 3 && readyServing().size() == 3);
            double up = since(loadStart);
            FIGURES.note("load (%d clients) → a third pod Ready: %.1f s (the autoscaler wrote spec.replicas 3 after %.1f s)", LOAD_CLIENTS, up,
                    samples.stream().filter(s -> s.specReplicas() == 3).mapToDouble(Sample::t).min().orElse(-1) - (loadStart - t0) / 1e9);
            for (SearchTraffic client : load) {
                client.stopSearching();
            }
            int served = load.stream().mapToInt(c -> c.served.get()).sum();
            int failed = load.stream().mapToInt(c -> c.failed.get()).sum();
            FIGURES.note("searches under load: %d served, %d failed", served, failed);
            assertEquals(0, failed, load.stream().flatMap(c -> c.failures.stream()).limit(5).toList().toString());

            // load stops; a slow trickle of searches goes on while the autoscaler removes a pod
            long loadEnd = System.nanoTime();
            SearchTraffic trickle = new SearchTraffic(this::readyServingAddresses);
            load.add(trickle);
            AtomicInteger trickleFailed = new AtomicInteger();
            AtomicInteger trickleServed = new AtomicInteger();
            List<String> trickleErrors = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            // Stopped by a flag, not an interrupt: an interrupt lands in a search in flight and reads as a failed search.
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread slow = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        var result = trickle.search("handbook", "password rules");
                        if (Boolean.TRUE.equals(result.isError())) {
                            trickleFailed.incrementAndGet();
                            trickleErrors.add(String.valueOf(result.content()));
                        } else {
                            trickleServed.incrementAndGet();
                        }
                        Thread.sleep(2000);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        trickleFailed.incrementAndGet();
                        trickleErrors.add(String.valueOf(e.getMessage()));
                    }
                }
            }, "hpa-trickle");
            slow.start();
            await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> specReplicas() == 2 && admin.pods().inNamespace(ns)
                            .withLabels(Labels.selector(NAME)).list().getItems().size() == 2);
            double down = since(loadEnd);
            stop.set(true);
            slow.join(120_000);
            FIGURES.note("load stopped → back to 2 pods (the third stopped and gone): %.1f s (stabilization window 30 s)", down);
            FIGURES.note("searches while scaling down: %d served, %d failed %s", trickleServed.get(), trickleFailed.get(), trickleErrors);
            assertEquals(0, trickleFailed.get(), "searches while scaling down: " + trickleErrors);
            assertTrue(trickleServed.get() > 0);
        } finally {
            sampler.close();
            for (SearchTraffic client : load) {
                client.close();
            }
        }
        FIGURES.note("replicas over time (t s: spec/deployment/ready, HPA cpu %%, PDB healthy): %s", timeline(samples));

        // the PDB held: never fewer ready serving pods than its minAvailable
        int fewest = samples.stream().mapToInt(Sample::readyServing).min().orElse(0);
        assertTrue(fewest >= 1, "ready serving pods never below the PDB's minAvailable 1: " + fewest);
        // the operator followed and never fought: every change of the Deployment's replicas is one of spec.replicas
        assertEquals(changes(samples, Sample::specReplicas), changes(samples, Sample::deploymentReplicas),
                "the Deployment moved exactly as spec.replicas did: " + timeline(samples));
        assertTrue(changes(samples, Sample::specReplicas).containsAll(List.of(3, 2)), timeline(samples));
        // who wrote spec.replicas: the HPA controller through /scale, never the operator
        ManagedFieldsEntry replicasOwner = get().getMetadata().getManagedFields().stream()
                .filter(f -> f.getFieldsV1() != null && String.valueOf(f.getFieldsV1().getAdditionalProperties()).contains("f:replicas")
                        && String.valueOf(f.getFieldsV1().getAdditionalProperties()).contains("f:spec"))
                .findFirst().orElseThrow();
        FIGURES.note("spec.replicas written by %s (operation %s, subresource %s)", replicasOwner.getManager(), replicasOwner.getOperation(),
                replicasOwner.getSubresource());
        assertEquals("scale", replicasOwner.getSubresource());
        assertFalse(replicasOwner.getManager().contains("ragsearch"), replicasOwner.getManager());
    }

    Sample sample(long t0) {
        RagSearch r = get();
        Deployment d = admin.apps().deployments().inNamespace(ns).withName(NAME).get();
        PodDisruptionBudget pdb = admin.policy().v1().podDisruptionBudget().inNamespace(ns).withName(NAME).get();
        return new Sample(since(t0), specReplicas(r),
                d == null || d.getSpec().getReplicas() == null ? -1 : d.getSpec().getReplicas(), readyServing().size(),
                cpuPercent(autoscaler()), pdb == null || pdb.getStatus() == null ? null : pdb.getStatus().getCurrentHealthy());
    }

    /** The values in order, each repeated one dropped: 2, 3, 2 for a scale-up and back. */
    static List<Integer> changes(List<Sample> samples, java.util.function.ToIntFunction<Sample> value) {
        List<Integer> out = new ArrayList<>();
        for (Sample s : samples) {
            int v = value.applyAsInt(s);
            if (v >= 0 && (out.isEmpty() || out.get(out.size() - 1) != v)) {
                out.add(v);
            }
        }
        return out.size() > 1 ? out.subList(1, out.size()) : List.of();
    }

    /** The samples where something changed. */
    static String timeline(List<Sample> samples) {
        StringBuilder out = new StringBuilder();
        Sample last = null;
        for (Sample s : samples) {
            if (last == null || s.specReplicas() != last.specReplicas() || s.deploymentReplicas() != last.deploymentReplicas()
                    || s.readyServing() != last.readyServing()) {
                out.append(String.format(Locale.ROOT, "%n    %.0f: %d/%d/%d, cpu %s %%, healthy %s", s.t(), s.specReplicas(),
                        s.deploymentReplicas(), s.readyServing(), s.cpuPercent(), s.pdbHealthy()));
            }
            last = s;
        }
        return out.toString();
    }

    static Integer cpuPercent(HorizontalPodAutoscaler hpa) {
        if (hpa == null || hpa.getStatus() == null || hpa.getStatus().getCurrentMetrics() == null) {
            return null;
        }
        return hpa.getStatus().getCurrentMetrics().stream().filter(m -> m.getResource() != null && "cpu".equals(m.getResource().getName()))
                .map(m -> m.getResource().getCurrent().getAverageUtilization()).findFirst().orElse(null);
    }

    /** spec.replicas (the API server defaults it to 1; the autoscaler raises it to its minimum, 2). */
    static int specReplicas(RagSearch r) {
        return r.getSpec().replicas == null ? -1 : r.getSpec().replicas;
    }

    int specReplicas() {
        return specReplicas(get());
    }

    HorizontalPodAutoscaler autoscaler() {
        return admin.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName(NAME).get();
    }

    /** The serving pods the Service selects that are ready and not terminating (what its endpoints would be). */
    List<Pod> readyServing() {
        return admin.pods().inNamespace(ns).withLabels(Labels.selector(NAME)).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).filter(EndpointReadiness::routable).toList();
    }

    List<String> readyServingAddresses() {
        return readyServing().stream().map(p -> p.getStatus().getPodIP()).sorted().toList();
    }

    RagSearch get() {
        return admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).get();
    }
}
