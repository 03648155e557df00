package io.ragsearch.operator.playground;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.reconcile.OperatorRuntime;

import java.util.List;

/**
 * The API server the playground applies the file to, and what runs the pods: the stand-in in
 * this JVM ({@link StandInCluster}) or a real control plane with our node agent ({@link RealCluster}).
 * The playground owns it: {@link #stop} ends everything it started.
 */
sealed interface PlaygroundCluster permits StandInCluster, RealCluster {

    /** A client the playground and the operator share (admin: the playground creates namespaces and ConfigMaps). */
    KubernetesClient client();

    /** How the operator writes to this API server. */
    OperatorRuntime.Apply apply();

    /** The banner's lines on the API server, its controllers, the kubelet and the pods, in the banner's columns. */
    String describe();

    /** The banner's logs line: where the pods' logs go (and the plane's). */
    String logs();

    /** Starts what runs the pods (and, for the stand-in, what stands in for the controllers). */
    void startPods();

    /** Pod processes still running. */
    long runningProcesses();

    /** Every process this cluster started that still runs: the pods' and the control plane's. */
    List<ProcessHandle> processes();

    /**
     * Stops the operator, what runs the pods and the API server, in the order this cluster needs;
     * says what stopped besides the server processes.
     */
    String stop(OperatorRuntime operator);
}
