package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.model.RagSearch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Writes core/v1 Events about a RagSearch (kubectl describe shows them) and logs them. */
public class EventRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final KubernetesClient client;
    /**
     * The last message per object and reason. Two reconciles can start from the same cached
     * status before the first one's patch arrives; the second must not repeat the first's events.
     */
    private final Map<String, String> lastMessage = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    // No finalizer, so no hook when a RagSearch is deleted: the oldest entries go instead.
                    return size() > MAX_REMEMBERED;
                }
            });
    /** Far more than (RagSearches × reasons) of any cluster; the bound only keeps deleted ones from piling up. */
    private static final int MAX_REMEMBERED = 10_000;

    public EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    public void normal(RagSearch about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    public void warning(RagSearch about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    /** Writes what a decision announced, in its order. */
    public void announce(RagSearch about, java.util.List<Announcement> said) {
        for (Announcement a : said) {
            record(about, a.warning() ? "Warning" : "Normal", a.reason(), a.message());
        }
    }

    private void record(RagSearch about, String type, String reason, String message) {
        String ns = about.getMetadata().getNamespace();
        String name = about.getMetadata().getName();
        String key = ns + "/" + name + "/" + about.getMetadata().getUid() + "/" + reason;
        if (message.equals(lastMessage.put(key, message))) {
            return;
        }
        LOG.info("{}/{} {} {}: {}", ns, name, type, reason, message);
        String now = Instant.now().toString();
        Event event = new EventBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(name + "." + Long.toHexString(System.currentTimeMillis()) + SEQUENCE.incrementAndGet())
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(RagSearch.API_VERSION).withKind("RagSearch").withNamespace(ns).withName(name)
                .withUid(about.getMetadata().getUid())
                .endInvolvedObject()
                .withType(type).withReason(reason)
                // The API server caps event messages at 1 KiB.
                .withMessage(message.length() > 1000 ? message.substring(0, 1000) + "…" : message)
                .withNewSource().withComponent("ragsearch-operator").endSource()
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withReportingComponent("ragsearch-operator")
                .build();
        try {
            client.v1().events().inNamespace(ns).resource(event).create();
        } catch (RuntimeException e) {
            // An event that cannot be written must not fail the reconcile it describes.
            LOG.warn("could not write event {} for {}/{}: {}", reason.toLowerCase(Locale.ROOT), ns, name, e.getMessage());
        }
    }
}
