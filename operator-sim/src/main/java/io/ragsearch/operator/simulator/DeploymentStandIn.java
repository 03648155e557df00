package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.operator.naming.ConfigHash;
import io.ragsearch.operator.naming.Labels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The Deployment and ReplicaSet controllers' part, for an API server that has none (fabric8's
 * mock): for each Deployment it keeps the desired number of Pods of the current template, placed
 * on the node agent's node, and replaces pods on a template change as the rolling update
 * strategy says (surge and unavailability counted on ready pods). A pod it removes is stopped by
 * the agent as a graceful deletion would stop it. A real control plane does all this itself.
 */
final class DeploymentStandIn {
    private static final Logger LOG = LoggerFactory.getLogger(DeploymentStandIn.class);

    private final KubernetesClient client;
    private final NodeAgent agent;
    /** Deployment "namespace/name" → its pods. */
    private final Map<String, List<Replica>> pods = new ConcurrentHashMap<>();
    private final AtomicInteger podSequence = new AtomicInteger();

    /** One pod it made, and the template it was made from. */
    private record Replica(String namespace, String name, String templateHash) {
    }

    DeploymentStandIn(KubernetesClient client, NodeAgent agent) {
        this.client = client;
        this.agent = agent;
    }

    void sync() {
        List<Deployment> deployments = client.apps().deployments().inAnyNamespace().list().getItems();
        Set<String> seen = deployments.stream().map(DeploymentStandIn::key).collect(Collectors.toSet());
        for (String gone : new ArrayList<>(pods.keySet())) {
            if (!seen.contains(gone)) {
                pods.remove(gone).forEach(this::remove);
            }
        }
        for (Deployment d : deployments) {
            reconcile(d);
        }
    }

    private boolean ready(Replica r) {
        return agent.pod(r.namespace(), r.name()).map(SimPod::ready).orElse(false);
    }

    /** One step of a rolling update toward the Deployment's template and replica count. */
    private void reconcile(Deployment d) {
        List<Replica> all = pods.computeIfAbsent(key(d), k -> new ArrayList<>());
        all.removeIf(r -> agent.pod(r.namespace(), r.name()).map(SimPod::terminating).orElse(false));
        String hash = templateHash(d);
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        int maxSurge = 1;
        int maxUnavailable = 0;
        if (d.getSpec().getStrategy() != null && d.getSpec().getStrategy().getRollingUpdate() != null) {
            var ru = d.getSpec().getStrategy().getRollingUpdate();
            maxSurge = resolve(ru.getMaxSurge(), replicas, true, 1);
            maxUnavailable = resolve(ru.getMaxUnavailable(), replicas, false, 0);
        }
        if (maxSurge == 0 && maxUnavailable == 0) {
            maxUnavailable = 1; // as Kubernetes does: a roll must be able to make progress
        }
        List<Replica> current = all.stream().filter(p -> p.templateHash().equals(hash)).toList();
        List<Replica> old = all.stream().filter(p -> !p.templateHash().equals(hash)).toList();
        long readyAll = all.stream().filter(this::ready).count();
        int total = all.size();
        int toStart = Math.min(replicas - current.size(), replicas + maxSurge - total);
        for (int i = 0; i < toStart; i++) {
            all.add(create(d, hash));
        }
        // Old pods go while enough pods stay ready; pods that are not ready count for nothing.
        long minReady = replicas - maxUnavailable;
        long removable = readyAll - minReady;
        List<Replica> surplus = new ArrayList<>(old);
        if (old.isEmpty() && current.size() > replicas) {
            surplus.addAll(current.subList(replicas, current.size()));
        }
        surplus.sort((a, b) -> Boolean.compare(ready(a), ready(b))); // not-ready ones first
        for (Replica p : surplus) {
            if (!ready(p)) {
                all.remove(p);
                remove(p);
            } else if (removable > 0) {
                removable--;
                all.remove(p);
                remove(p);
            }
        }
    }

    /** A Pod of the template, owned by the Deployment, placed on the agent's node. */
    private Replica create(Deployment d, String hash) {
        String ns = d.getMetadata().getNamespace();
        String name = d.getMetadata().getName() + "-" + hash.substring(0, Math.min(8, hash.length())) + "-"
                + Integer.toString(podSequence.incrementAndGet(), 36);
        var template = d.getSpec().getTemplate();
        client.pods().inNamespace(ns).resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(ns)
                .withLabels(template.getMetadata().getLabels()).withAnnotations(template.getMetadata().getAnnotations())
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("Deployment").withName(d.getMetadata().getName())
                .withUid(d.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata()
                .withSpec(new PodSpecBuilder(template.getSpec()).withNodeName(agent.node()).build())
                .build()).create();
        LOG.info("pod {}/{}: created for deployment {}", ns, name, d.getMetadata().getName());
        return new Replica(ns, name, hash);
    }

    private void remove(Replica r) {
        agent.terminate(r.namespace(), r.name());
    }

    /** The template's identity: the operator's config hash when present, else a hash of the template. */
    static String templateHash(Deployment d) {
        Map<String, String> annotations = d.getSpec().getTemplate().getMetadata() == null ? null
                : d.getSpec().getTemplate().getMetadata().getAnnotations();
        if (annotations != null && annotations.get(Labels.CONFIG_HASH) != null) {
            return annotations.get(Labels.CONFIG_HASH);
        }
        return ConfigHash.of(Serialization.asJson(d.getSpec().getTemplate()));
    }

    private static int resolve(IntOrString v, int replicas, boolean roundUp, int dflt) {
        if (v == null) {
            return dflt;
        }
        if (v.getIntVal() != null) {
            return v.getIntVal();
        }
        String s = v.getStrVal().strip();
        if (s.endsWith("%")) {
            double share = Double.parseDouble(s.substring(0, s.length() - 1)) / 100.0 * replicas;
            return (int) (roundUp ? Math.ceil(share) : Math.floor(share));
        }
        return Integer.parseInt(s);
    }

    private static String key(Deployment d) {
        return d.getMetadata().getNamespace() + "/" + d.getMetadata().getName();
    }
}
