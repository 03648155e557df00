package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pod's projected ServiceAccount tokens, as the kubelet's token manager keeps them: each asked
 * of the API server's TokenRequest API for the pod's ServiceAccount with the source's audience and
 * {@code expirationSeconds} (default 3607, the kubelet's), bound to the pod (so the API server can
 * refuse it once the pod is gone, and its claims name the pod), written to its path, and asked again
 * before it expires ({@link #due}), replacing the file in one rename so a reader never sees half a token.
 */
final class ProjectedTokens {

    private static final Logger LOG = LoggerFactory.getLogger(ProjectedTokens.class);
    /** The kubelet's default when a source gives no expirationSeconds. */
    static final long DEFAULT_EXPIRATION_SECONDS = 3607;
    /** The kubelet refreshes a token past 80 % of its lifetime, or older than a day, whichever comes first. */
    private static final double REFRESH_FRACTION = 0.8;
    private static final Duration MAX_AGE = Duration.ofHours(24);

    /** Which pod the tokens are for (its uid binds them). */
    record Pod(String namespace, String name, String uid, String serviceAccount) {
    }

    /** One token written for a source: where, and its lifetime as the API server gave it. */
    record Issued(Path file, ServiceAccountTokenProjection source, Instant issuedAt, Instant expiresAt) {
    }

    private final KubernetesClient client;
    private final Pod pod;
    private final List<Issued> issued = new CopyOnWriteArrayList<>();

    ProjectedTokens(KubernetesClient client, Pod pod) {
        this.client = client;
        this.pod = pod;
    }

    /** Whether a token issued at {@code issuedAt} for {@code expiresAt} is to be asked again at {@code now}. */
    static boolean due(Instant issuedAt, Instant expiresAt, Instant now) {
        Duration lifetime = Duration.between(issuedAt, expiresAt);
        Instant refreshAt = issuedAt.plusMillis((long) (lifetime.toMillis() * REFRESH_FRACTION));
        Instant tooOld = issuedAt.plus(MAX_AGE);
        return !now.isBefore(refreshAt.isBefore(tooOld) ? refreshAt : tooOld);
    }

    /** Asks for the source's first token and writes it into {@code dir}; it is kept fresh from now on. */
    void project(ServiceAccountTokenProjection source, Path dir) throws IOException {
        Path file = dir.resolve(source.getPath());
        issued.add(write(file, source));
    }

    /** Asks again for every token that is due and replaces its file; a failure is retried on the next call. */
    void refreshDue(Instant now) {
        for (Issued i : issued) {
            if (!due(i.issuedAt(), i.expiresAt(), now)) {
                continue;
            }
            try {
                Issued fresh = write(i.file(), i.source());
                issued.remove(i);
                issued.add(fresh);
                LOG.info("pod {}/{}: projected token {} refreshed, now valid until {}", pod.namespace(), pod.name(), i.file().getFileName(),
                        fresh.expiresAt());
            } catch (IOException e) {
                LOG.warn("pod {}/{}: projected token {} not refreshed (kept until it expires at {}): {}", pod.namespace(), pod.name(),
                        i.file().getFileName(), i.expiresAt(), e.getMessage());
            }
        }
    }

    /** The tokens written so far (for checks of what a pod was given). */
    List<Issued> issued() {
        return List.copyOf(issued);
    }

    private Issued write(Path file, ServiceAccountTokenProjection source) throws IOException {
        long seconds = source.getExpirationSeconds() == null ? DEFAULT_EXPIRATION_SECONDS : source.getExpirationSeconds();
        TokenRequest request = new TokenRequestBuilder().withNewSpec()
                .withExpirationSeconds(seconds)
                .withAudiences(source.getAudience() == null || source.getAudience().isEmpty() ? List.of() : List.of(source.getAudience()))
                .withNewBoundObjectRef().withApiVersion("v1").withKind("Pod").withName(pod.name()).withUid(pod.uid()).endBoundObjectRef()
                .endSpec().build();
        String account = pod.serviceAccount() == null ? "default" : pod.serviceAccount();
        Instant asked = Instant.now();
        TokenRequest answer;
        try {
            answer = client.serviceAccounts().inNamespace(pod.namespace()).withName(account).tokenRequest(request);
        } catch (RuntimeException e) {
            throw new IOException("service account token for " + account + ": " + e.getMessage(), e);
        }
        String expires = answer.getStatus().getExpirationTimestamp();
        Instant expiresAt = expires == null ? asked.plusSeconds(seconds) : Instant.parse(expires);
        Files.createDirectories(file.getParent());
        Path partial = Files.createTempFile(file.getParent(), ".token", ".tmp");
        Files.writeString(partial, answer.getStatus().getToken(), StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return new Issued(file, source, asked, expiresAt);
    }
}
