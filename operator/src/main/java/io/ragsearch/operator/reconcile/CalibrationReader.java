package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.operator.podadmin.PodAdminClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads {@code /calibration} from pods. A pod measures once, at startup, so its answer is kept
 * by pod UID and asked for again only if it was not available yet.
 */
public final class CalibrationReader {
    private static final Logger LOG = LoggerFactory.getLogger(CalibrationReader.class);
    /** Pods come and go; the cache keeps the newest answers, far more than any one RagSearch runs. */
    private static final int MAX_CACHED = 4096;

    private final PodAdminClient client;
    private final int adminPort;
    private final Map<String, Calibration> byPodUid = new ConcurrentHashMap<>();

    public CalibrationReader(PodAdminClient client, int adminPort) {
        this.client = client;
        this.adminPort = adminPort;
    }

    /** Measurements of the given pods; a pod that cannot be read is logged and left out. */
    public List<RerankPlanner.PodMeasurement> read(List<Pod> pods) {
        List<RerankPlanner.PodMeasurement> out = new ArrayList<>();
        for (Pod pod : pods) {
            String uid = pod.getMetadata().getUid() == null ? pod.getMetadata().getName() : pod.getMetadata().getUid();
            Calibration report = byPodUid.get(uid);
            if (report == null) {
                report = fetch(pod).orElse(null);
                if (report == null) {
                    continue;
                }
                if (byPodUid.size() >= MAX_CACHED) {
                    byPodUid.clear();
                }
                byPodUid.put(uid, report);
            }
            if (report.hasReranker()) {
                out.add(new RerankPlanner.PodMeasurement(pod.getMetadata().getName(),
                        MeasuredCost.of(pod.getMetadata().getName(), report)));
            }
        }
        return out;
    }

    private Optional<Calibration> fetch(Pod pod) {
        try {
            return client.calibration(pod.getStatus().getPodIP(), adminPort);
        } catch (IOException | RuntimeException e) {
            LOG.warn("calibration of pod {}/{} not readable: {}", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
    }
}
