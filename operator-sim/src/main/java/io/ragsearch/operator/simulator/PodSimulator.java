package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Our node agent ({@link NodeAgent}) plus what an API server without controllers (fabric8's
 * mock in CRUD mode) lacks: a stand-in for the Deployment controller ({@link DeploymentStandIn})
 * and the garbage collector ({@link OwnerGarbageCollector}). The fast tests and the playground
 * use it; against a real control plane the agent runs alone and the real controllers do the rest.
 */
public final class PodSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodSimulator.class);

    private final KubernetesClient client;
    private final NodeAgent agent;
    private final DeploymentStandIn deployments;
    private final OwnerGarbageCollector garbage;
    private final NodeAgent.Settings settings;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(NodeAgent.daemon("sim-controllers"));

    public PodSimulator(KubernetesClient client, NodeAgent.Settings settings) {
        this.client = client;
        this.settings = settings;
        this.agent = new NodeAgent(client, settings, NodeAgent.DEFAULT_NODE);
        this.deployments = new DeploymentStandIn(client, agent);
        this.garbage = new OwnerGarbageCollector(client);
    }

    /** What pods run from: the image's file system, or the plain jar and why. */
    public String runtime() {
        return agent.runtime();
    }

    public boolean runsImage() {
        return agent.runsImage();
    }

    public void start() {
        agent.start();
        loop.scheduleWithFixedDelay(this::syncQuietly, 0, settings.syncPeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether pods run under their memory limits; otherwise why not. */
    public String memoryLimits() {
        return agent.memoryLimits();
    }

    public boolean memoryLimitsEnforced() {
        return agent.memoryLimitsEnforced();
    }

    /** Whether pods run under their CPU limits; otherwise why not. */
    public String cpuLimits() {
        return agent.cpuLimits();
    }

    public boolean cpuLimitsEnforced() {
        return agent.cpuLimitsEnforced();
    }

    /** The main containers' processes now running, for checks of what they run as. */
    public List<ProcessHandle> processes() {
        return agent.processes();
    }

    /** Processes started and still running, for checks that nothing is left behind. */
    public long runningProcesses() {
        return agent.runningProcesses();
    }

    private void syncQuietly() {
        try {
            garbage.collect();
            deployments.sync();
        } catch (RuntimeException e) {
            LOG.warn("simulator sync: {}", e.getMessage());
        }
    }

    /** Stops every process it started and removes what it created. */
    @Override
    public void close() {
        loop.shutdownNow();
        try {
            loop.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agent.close();
    }
}
