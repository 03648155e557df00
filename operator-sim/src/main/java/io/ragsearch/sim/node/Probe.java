package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One of a container's HTTP probes, as declared: path, port (by number or name), period, timeout, thresholds. */
record Probe(ProbeKind kind, String path, int port, int initialDelaySeconds, int periodSeconds, int timeoutSeconds,
             int successThreshold, int failureThreshold) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** The probe of the given kind, or null when the container declares none (or not an HTTP one). */
    static Probe of(ProbeKind kind, Container c) {
        io.fabric8.kubernetes.api.model.Probe p = kind.declared(c);
        if (p == null || p.getHttpGet() == null) {
            return null;
        }
        return new Probe(kind, p.getHttpGet().getPath() == null ? "/" : p.getHttpGet().getPath(),
                port(p.getHttpGet().getPort(), c), or(p.getInitialDelaySeconds(), 0), or(p.getPeriodSeconds(), 10),
                or(p.getTimeoutSeconds(), 1), or(p.getSuccessThreshold(), 1), or(p.getFailureThreshold(), 3));
    }

    /** As the kubelet counts it: any status in [200, 400) within the timeout. */
    boolean check(String ip) {
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + ip + ":" + port + path))
                    .timeout(Duration.ofSeconds(timeoutSeconds)).GET().build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() >= 200 && r.statusCode() < 400;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    private static int port(IntOrString port, Container c) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return c.getPorts().stream().filter(p -> port.getStrVal().equals(p.getName())).map(ContainerPort::getContainerPort)
                .findFirst().orElseThrow(() -> new IllegalArgumentException("probe names unknown port " + port.getStrVal()));
    }

    private static int or(Integer v, int dflt) {
        return v == null ? dflt : v;
    }
}
