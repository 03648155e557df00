package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.operator.podadmin.PodAdminClient;
import io.ragsearch.operator.podadmin.DatabaseState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads each ready pod's database state from its /info on every reconcile (unlike a
 * calibration it changes): the status aggregates it into {@code DatabaseReachable}, since a pod
 * keeps serving — and stays ready — through an outage.
 */
final class DatabaseReader {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseReader.class);

    /** One pod's answer. */
    record PodDatabase(String pod, DatabaseState state) {
    }

    private final PodAdminClient client;
    private final int adminPort;

    DatabaseReader(PodAdminClient client, int adminPort) {
        this.client = client;
        this.adminPort = adminPort;
    }

    List<PodDatabase> read(List<Pod> pods) {
        List<PodDatabase> out = new ArrayList<>();
        for (Pod pod : pods) {
            try {
                client.database(pod.getStatus().getPodIP(), adminPort)
                        .ifPresent(state -> out.add(new PodDatabase(pod.getMetadata().getName(), state)));
            } catch (IOException | RuntimeException e) {
                LOG.warn("/info of pod {}/{} not readable: {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                        e.getMessage());
            }
        }
        return out;
    }
}
