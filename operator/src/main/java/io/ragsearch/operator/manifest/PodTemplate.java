package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.Environment;
import io.ragsearch.operator.budget.HeapSize;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.Database;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.spec.CheckedSpec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The server pods' template: containers, probes, environment, volumes, resources, security. */
final class PodTemplate {

    private PodTemplate() {
    }

    static final int STARTUP_PERIOD_SECONDS = 5;
    /** The kubelet renews a projected token at 80 % of its life; an hour is the usual in-cluster token's. */
    static final long KUBE_API_TOKEN_SECONDS = 3600;

    static PodSpec podSpec(CheckedSpec spec, int concurrency) {
        RagSearchSpec s = spec.spec();
        List<Volume> volumes = new ArrayList<>();
        List<VolumeMount> mounts = new ArrayList<>();
        volumes.add(new VolumeBuilder().withName("config").withNewConfigMap().withName(ObjectNames.configMap(spec.name())).endConfigMap().build());
        mounts.add(mount("config", PodLayout.CONFIG_DIR, true, null));
        // Read-only root filesystem: the JVM, ONNX Runtime and the tokenizer native library need a writable /tmp.
        volumes.add(new VolumeBuilder().withName("tmp").withNewEmptyDir().withSizeLimit(new Quantity(spec.tmpSize()))
                .endEmptyDir().build());
        mounts.add(mount("tmp", "/tmp", false, null));
        if (s.auth != null && Boolean.TRUE.equals(s.auth.kubernetesKeys)) {
            // The API server's JWKS wants a token unless discovery is open to anonymous callers: the
            // pod's own (its ServiceAccount is in system:serviceaccounts, which the default
            // system:service-account-issuer-discovery binding admits), rotated by the kubelet, and the cluster CA.
            volumes.add(new VolumeBuilder().withName(PodLayout.KUBE_API_VOLUME).withNewProjected()
                    .addNewSource().withNewServiceAccountToken().withPath(PodLayout.KUBE_API_TOKEN)
                    .withExpirationSeconds(KUBE_API_TOKEN_SECONDS).endServiceAccountToken().endSource()
                    .addNewSource().withNewConfigMap().withName("kube-root-ca.crt").addNewItem().withKey("ca.crt")
                    .withPath(PodLayout.KUBE_API_CA).endItem().endConfigMap().endSource()
                    .endProjected().build());
            mounts.add(mount(PodLayout.KUBE_API_VOLUME, PodLayout.KUBE_API_DIR, true, null));
        }
        if (s.vectorCache != null) {
            volumes.add(new VolumeBuilder().withName("vector-cache").withNewPersistentVolumeClaim()
                    .withClaimName(s.vectorCache.claimName).endPersistentVolumeClaim().build());
            mounts.add(mount("vector-cache", PodLayout.VECTOR_CACHE_DIR, false, emptyToNull(s.vectorCache.path)));
        }
        for (Project p : s.projects) {
            if (p.source.configMap != null) {
                String volume = ObjectNames.corpusVolume(p.name);
                volumes.add(new VolumeBuilder().withName(volume).withNewConfigMap().withName(p.source.configMap).endConfigMap().build());
                mounts.add(mount(volume, PodLayout.CORPUS_DIR + "/" + p.name, true, null));
            }
        }
        List<Container> initContainers = new ArrayList<>();
        boolean fetched = false;
        boolean modelDir = false;
        Map<String, ModelSource> models = new LinkedHashMap<>();
        if (s.models != null) {
            if (s.models.embedding != null) {
                models.put("embedding", s.models.embedding);
            }
            if (s.models.reranker != null) {
                models.put("reranker", s.models.reranker);
            }
        }
        for (Map.Entry<String, ModelSource> e : models.entrySet()) {
            String role = e.getKey();
            ModelSource m = e.getValue();
            if (m.pvc != null) {
                modelDir = true;
                String volume = "model-" + role;
                volumes.add(new VolumeBuilder().withName(volume).withNewPersistentVolumeClaim()
                        .withClaimName(m.pvc.claimName).withReadOnly(true).endPersistentVolumeClaim().build());
                mounts.add(mount(volume, PodLayout.MODEL_DIR + "/" + role, true, emptyToNull(m.pvc.path)));
            } else if (m.url != null) {
                modelDir = true;
                fetched = true;
                initContainers.add(fetchContainer(spec, role, m));
            }
        }
        if (fetched) {
            volumes.add(new VolumeBuilder().withName("models").withNewEmptyDir().withSizeLimit(new Quantity(spec.modelsSize()))
                    .endEmptyDir().build());
            mounts.add(mount("models", PodLayout.MODEL_DIR, true, null));
        }
        Container server = new ContainerBuilder()
                .withName(PodLayout.SERVER_CONTAINER)
                .withImage(spec.image())
                .withArgs("serve")
                .addNewPort().withName(PodLayout.MCP_PORT_NAME).withContainerPort(PodLayout.MCP_PORT).withProtocol("TCP").endPort()
                .addNewPort().withName(PodLayout.ADMIN_PORT_NAME).withContainerPort(PodLayout.ADMIN_PORT).withProtocol("TCP").endPort()
                .withEnv(env(spec, concurrency, modelDir))
                .withResources(resources(spec, fetched))
                // Resized in place without a restart: the server follows its memory limit and moves its
                // rerank permits itself (docs/memory.md); CPU needs nothing of the process.
                .addNewResizePolicy().withResourceName("memory").withRestartPolicy("NotRequired").endResizePolicy()
                .addNewResizePolicy().withResourceName("cpu").withRestartPolicy("NotRequired").endResizePolicy()
                .withLifecycle(PodPlacement.lifecycle(spec))
                // Model load and the lexical index build take their time: the startup probe covers
                // them, so liveness never has to wait for a slow start. Article embedding (hours
                // for a large first start) and calibration run after it, behind readiness, which
                // never restarts a pod: the budget need not grow with the corpus.
                .withStartupProbe(probe(AdminEndpoints.STARTUPZ, STARTUP_PERIOD_SECONDS, 3,
                        Math.max(1, (spec.startupTimeoutSeconds() + STARTUP_PERIOD_SECONDS - 1) / STARTUP_PERIOD_SECONDS)))
                // The admin listener never waits for tool work, so a busy pod still answers /livez.
                .withLivenessProbe(probe(AdminEndpoints.LIVEZ, 10, 5, 3))
                .withReadinessProbe(probe(AdminEndpoints.READYZ, 5, 3, 2))
                .withSecurityContext(containerSecurity())
                .withVolumeMounts(mounts)
                .build();
        PodSpecBuilder pod = new PodSpecBuilder()
                .withInitContainers(initContainers)
                .withContainers(server)
                .withVolumes(volumes)
                .withAutomountServiceAccountToken(false);
        PodPlacement.apply(spec, pod);
        return pod.build();
    }

    /** The server image's own fetch command: download, check sha256, unpack into /models/ROLE. */
    private static Container fetchContainer(CheckedSpec spec, String role, ModelSource m) {
        return new ContainerBuilder()
                .withName("fetch-" + role)
                .withImage(spec.image())
                .withArgs("fetch", "--url", m.url, "--sha256", m.sha256, "--to", PodLayout.MODEL_DIR + "/" + role)
                .withResources(resources(spec, true))
                .withSecurityContext(containerSecurity())
                .withVolumeMounts(mount("models", PodLayout.MODEL_DIR, false, null), mount("tmp", "/tmp", false, null))
                .build();
    }

    private static List<EnvVar> env(CheckedSpec spec, int concurrency, boolean modelDir) {
        List<EnvVar> env = new ArrayList<>();
        env.add(plain(Environment.CONFIG, PodLayout.CONFIG_DIR + "/" + PodLayout.CONFIG_FILE));
        env.add(plain(Environment.RERANK_CONCURRENCY, Integer.toString(concurrency)));
        env.add(plain(Environment.BIND_ADDRESS, "0.0.0.0"));
        env.add(plain(Environment.MCP_PORT, Integer.toString(PodLayout.MCP_PORT)));
        env.add(plain(Environment.ADMIN_PORT, Integer.toString(PodLayout.ADMIN_PORT)));
        if (modelDir) {
            env.add(plain(Environment.MODEL_DIR, PodLayout.MODEL_DIR));
        }
        RagSearchSpec s = spec.spec();
        // Embedding a corpus is the slow part of a start: vectors outlive the process at least, the pod with a claim.
        env.add(plain(Environment.VECTOR_CACHE, s.vectorCache != null ? PodLayout.VECTOR_CACHE_DIR : PodLayout.VECTOR_CACHE_IN_TMP));
        if (s.database != null) {
            String secret = s.database.secretRef.name;
            env.add(fromSecret(Environment.DB_URL, secret, Database.URL_KEY));
            env.add(fromSecret(Environment.DB_USER, secret, Database.USER_KEY));
            env.add(fromSecret(Environment.DB_PASSWORD, secret, Database.PASSWORD_KEY));
        }
        if (s.auth != null && s.auth.bearerTokenSecretRef != null) {
            env.add(fromSecret(Environment.AUTH_TOKEN, s.auth.bearerTokenSecretRef.name, Auth.TOKEN_KEY));
        }
        if (s.telemetry != null) {
            // Traces only where the RagSearch says: the server exports nothing without an OTEL_* variable.
            env.add(plain("OTEL_EXPORTER_OTLP_ENDPOINT", s.telemetry.otlpEndpoint));
            env.add(plain("OTEL_SERVICE_NAME", spec.name()));
            env.add(plain("OTEL_RESOURCE_ATTRIBUTES", "k8s.namespace.name=" + spec.namespace()));
        }
        // Java 17 takes the file-name encoding from the locale: Korean file names need UTF-8.
        env.add(plain("LANG", "C.UTF-8"));
        // The root filesystem is read-only: the tokenizer library unpacks its native part under /tmp.
        env.add(plain("DJL_CACHE_DIR", "/tmp/djl"));
        // A sized heap (HeapSize): the calibration counts heap the JVM may still take as resident.
        // An out-of-memory error in the heap leaves a half-working JVM: exit and let the kubelet restart it.
        env.add(plain("JAVA_TOOL_OPTIONS", HeapSize.flags(spec.heapBytes()) + " -XX:+ExitOnOutOfMemoryError"));
        return env;
    }

    /**
     * Memory request = limit (the budget is computed against it); CPU request = limit when given.
     * Ephemeral storage: requested what the emptyDirs may hold (their sizeLimits evict beyond it),
     * so the scheduler places the pod where that much disk is free.
     */
    private static ResourceRequirements resources(CheckedSpec spec, boolean fetchesModels) {
        BigDecimal disk = Quantity.getAmountInBytes(new Quantity(spec.tmpSize()));
        if (fetchesModels) {
            disk = disk.add(Quantity.getAmountInBytes(new Quantity(spec.modelsSize())));
        }
        ResourceRequirementsBuilder b = new ResourceRequirementsBuilder()
                .addToLimits("memory", new Quantity(spec.memory()))
                .addToRequests("memory", new Quantity(spec.memory()))
                .addToRequests("ephemeral-storage", new Quantity(disk.setScale(0, RoundingMode.CEILING).toPlainString()));
        if (spec.cpu() != null) {
            b.addToLimits("cpu", new Quantity(spec.cpu())).addToRequests("cpu", new Quantity(spec.cpu()));
        }
        return b.build();
    }

    private static Probe probe(String path, int period, int timeout, int failures) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath(path).withPort(new IntOrString(PodLayout.ADMIN_PORT_NAME)).endHttpGet()
                .withPeriodSeconds(period).withTimeoutSeconds(timeout).withFailureThreshold(failures).withSuccessThreshold(1)
                .build();
    }

    private static SecurityContext containerSecurity() {
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withRunAsNonRoot(true)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }

    private static VolumeMount mount(String volume, String path, boolean readOnly, String subPath) {
        return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly).withSubPath(subPath).build();
    }

    private static EnvVar plain(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }

    private static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name).withNewValueFrom()
                .withNewSecretKeyRef().withName(secret).withKey(key).endSecretKeyRef().endValueFrom().build();
    }

    private static String emptyToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
