package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The API calls of an in-place resize: which Kubernetes the cluster runs (once), and a pod's
 * {@code resize} subresource patched (strategic merge on the container by name: only its CPU and
 * memory change; the API server refuses anything else there).
 */
public final class PodResizeClient {

    /** In-place pod resize is GA, and on by default, from this minor version of Kubernetes 1. */
    static final int FIRST_MINOR = 35;
    private static final long TIMEOUT_SECONDS = 10;

    private final KubernetesClient client;
    private volatile ResizePlanner.Support support;

    public PodResizeClient(KubernetesClient client) {
        this.client = client;
    }

    /** Pure: whether this version resizes pods in place. */
    static ResizePlanner.Support support(String major, String minor, String gitVersion) {
        try {
            int ma = Integer.parseInt(major.replaceAll("\\D", ""));
            int mi = Integer.parseInt(minor.replaceAll("\\D", ""));
            return new ResizePlanner.Support(ma > 1 || (ma == 1 && mi >= FIRST_MINOR), "Kubernetes " + gitVersion);
        } catch (RuntimeException e) {
            return new ResizePlanner.Support(false, "a cluster whose version (" + major + "." + minor + ") cannot be read");
        }
    }

    /** The cluster's support, asked once (a version does not change under a running operator often enough to matter). */
    public ResizePlanner.Support support() {
        ResizePlanner.Support known = support;
        if (known == null) {
            try {
                VersionInfo v = client.getKubernetesVersion();
                known = support(v.getMajor(), v.getMinor(), v.getGitVersion());
            } catch (RuntimeException e) {
                known = new ResizePlanner.Support(false, "a cluster that does not say its version (" + e.getMessage() + ")");
            }
            support = known;
        }
        return known;
    }

    /** What the API server answered; {@code refusal} is null when it took the resize. */
    public record Result(int status, String refusal) {
        public boolean applied() {
            return refusal == null;
        }
    }

    /** PATCH pods/NAME/resize: the container's memory (request = limit) and CPU when the spec has one. */
    public Result resize(Pod pod, String container, String memory, String cpu) {
        Map<String, String> quantities = new LinkedHashMap<>();
        quantities.put("memory", memory);
        if (cpu != null) {
            quantities.put("cpu", cpu);
        }
        String resources = io.fabric8.kubernetes.client.utils.Serialization.asJson(Map.of("limits", quantities, "requests", quantities));
        String body = "{\"spec\":{\"containers\":[{\"name\":" + io.fabric8.kubernetes.client.utils.Serialization.asJson(container)
                + ",\"resources\":" + resources + "}]}}";
        String url = client.getMasterUrl().toString().replaceAll("/$", "") + "/api/v1/namespaces/" + pod.getMetadata().getNamespace()
                + "/pods/" + pod.getMetadata().getName() + "/resize";
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url)
                .method("PATCH", "application/strategic-merge-patch+json", body).build();
        try {
            HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (response.code() / 100 == 2) {
                return new Result(response.code(), null);
            }
            return new Result(response.code(), response.code() + ": " + message(response.body()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(0, "interrupted");
        } catch (ExecutionException | TimeoutException e) {
            return new Result(0, "no answer: " + e.getMessage());
        }
    }

    /** The Status object's message, at most 200 characters: never a whole body in an event. */
    private static String message(String body) {
        try {
            Object m = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(body, Map.class).get("message");
            String text = m == null ? "" : m.toString();
            return text.length() > 200 ? text.substring(0, 200) + "…" : text;
        } catch (RuntimeException e) {
            return "(no message)";
        }
    }
}
