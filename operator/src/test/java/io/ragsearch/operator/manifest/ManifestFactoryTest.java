package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.Database;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.PvcModel;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.SecretKeys;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import io.ragsearch.operator.spec.SpecCheckTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Model delivery, secrets and the config hash in what the reconciler applies. */
class ManifestFactoryTest {

    @Test
    void aUrlModelIsFetchedByAnInitContainerIntoTheModelsVolume() {
        RagSearch r = base();
        r.getSpec().models.reranker = new ModelSource();
        r.getSpec().models.reranker.url = "https://models.example/ce.zip";
        r.getSpec().models.reranker.sha256 = "a".repeat(64);
        Manifests m = ManifestFactory.build(check(r), 2);
        PodSpec pod = m.deployment().getSpec().getTemplate().getSpec();

        Container fetch = pod.getInitContainers().get(0);
        assertEquals("fetch-reranker", fetch.getName());
        assertEquals(r.getSpec().image, fetch.getImage(), "the server image's own fetch command");
        assertEquals(List.of("fetch", "--url", "https://models.example/ce.zip", "--sha256", "a".repeat(64), "--to", "/models/reranker"),
                fetch.getArgs());
        assertEquals(Boolean.FALSE, mount(fetch, "models").getReadOnly());
        assertEquals(Boolean.TRUE, mount(server(pod), "models").getReadOnly());
        assertTrue(volume(pod, "models").getEmptyDir() != null);
        assertEquals("/models", env(server(pod), "RAGSEARCH_MODEL_DIR").getValue());
        ServerSettings config = RenderedSettings.parse(m.configMap().getData().get("config.yaml"));
        assertEquals(java.util.List.of(), SettingsRules.problems(config));
        assertEquals("reranker", config.projects().get(0).reranker().path(), "resolved below RAGSEARCH_MODEL_DIR");
    }

    @Test
    void theEmbeddingModelsMaxSeqLenReachesTheServerAndTheReranksStaysItsOwn() {
        RagSearch r = base();
        ServerSettings plain = RenderedSettings.parse(ManifestFactory.build(check(r), 1).configMap().getData().get("config.yaml"));
        assertEquals(null, plain.models() == null || plain.models().embedding() == null ? null : plain.models().embedding().maxSeqLen(),
                "absent: the server's default for the model");

        r.getSpec().models.embedding = new ModelSource();
        r.getSpec().models.embedding.builtin = "all-minilm-l6-v2";
        r.getSpec().models.embedding.maxSeqLen = 128;
        r.getSpec().models.reranker.maxSeqLen = 384;
        Manifests m = ManifestFactory.build(check(r), 1);
        ServerSettings config = RenderedSettings.parse(m.configMap().getData().get("config.yaml"));
        assertEquals(List.of(), SettingsRules.problems(config));
        assertEquals(128, config.models().embedding().maxSeqLen(), "was accepted by the CRD and dropped before");
        assertEquals("all-minilm-l6-v2", config.models().embedding().builtin());
        assertEquals(384, config.projects().get(0).reranker().maxSeqLen());
    }

    @Test
    void aClaimModelIsMountedReadOnlyAtItsRolePath() {
        RagSearch r = base();
        r.getSpec().models.embedding = new ModelSource();
        r.getSpec().models.embedding.pvc = new PvcModel();
        r.getSpec().models.embedding.pvc.claimName = "models";
        r.getSpec().models.embedding.pvc.path = "minilm";
        PodSpec pod = ManifestFactory.build(check(r), 1).deployment().getSpec().getTemplate().getSpec();

        assertTrue(pod.getInitContainers().isEmpty());
        assertEquals("models", volume(pod, "model-embedding").getPersistentVolumeClaim().getClaimName());
        VolumeMount m = mount(server(pod), "model-embedding");
        assertEquals("/models/embedding", m.getMountPath());
        assertEquals("minilm", m.getSubPath());
        assertEquals(Boolean.TRUE, m.getReadOnly());
    }

    @Test
    void passageVectorsAreKeptInTmpOrOnTheNamedClaim() {
        PodSpec plain = ManifestFactory.build(check(base()), 1).deployment().getSpec().getTemplate().getSpec();
        assertEquals("/tmp/ragsearch-vectors", env(server(plain), "RAGSEARCH_VECTOR_CACHE").getValue(),
                "inside the /tmp emptyDir: a restarted container reuses them");
        assertTrue(plain.getVolumes().stream().noneMatch(v -> v.getName().equals("vector-cache")));

        RagSearch r = base();
        r.getSpec().vectorCache = new PvcModel();
        r.getSpec().vectorCache.claimName = "search-vectors";
        r.getSpec().vectorCache.path = "team-a";
        PodSpec pod = ManifestFactory.build(check(r), 1).deployment().getSpec().getTemplate().getSpec();
        assertEquals("search-vectors", volume(pod, "vector-cache").getPersistentVolumeClaim().getClaimName());
        VolumeMount m = mount(server(pod), "vector-cache");
        assertEquals("/var/cache/ragsearch/vectors", m.getMountPath());
        assertEquals("team-a", m.getSubPath());
        assertEquals(Boolean.FALSE, m.getReadOnly(), "the pods write what they embed");
        assertEquals("/var/cache/ragsearch/vectors", env(server(pod), "RAGSEARCH_VECTOR_CACHE").getValue());
    }

    @Test
    void tracesLeaveThePodsOnlyWhereTheSpecSendsThem() {
        Container plain = server(ManifestFactory.build(check(base()), 1).deployment().getSpec().getTemplate().getSpec());
        assertTrue(plain.getEnv().stream().noneMatch(e -> e.getName().startsWith("OTEL_")), "no OTEL_* variable: the server exports nothing");

        RagSearch r = base();
        r.getSpec().telemetry = new io.ragsearch.operator.model.Telemetry();
        r.getSpec().telemetry.otlpEndpoint = "http://otel-collector.observability:4318";
        Manifests m = ManifestFactory.build(check(r), 1);
        Container c = server(m.deployment().getSpec().getTemplate().getSpec());
        assertEquals("http://otel-collector.observability:4318", env(c, "OTEL_EXPORTER_OTLP_ENDPOINT").getValue());
        assertEquals(r.getMetadata().getName(), env(c, "OTEL_SERVICE_NAME").getValue());
        assertEquals("k8s.namespace.name=" + r.getMetadata().getNamespace(), env(c, "OTEL_RESOURCE_ATTRIBUTES").getValue());
        assertNotEquals(ManifestFactory.build(check(base()), 1).configHash(), m.configHash(), "the pods roll to start tracing");
    }

    @Test
    void secretsReachThePodAsReferencesNeverAsValues() {
        RagSearch r = base();
        r.getSpec().database = new Database();
        r.getSpec().database.secretRef = new SecretKeys();
        r.getSpec().database.secretRef.name = "pg";
        r.getSpec().auth = new Auth();
        r.getSpec().auth.bearerTokenSecretRef = new SecretKeys();
        r.getSpec().auth.bearerTokenSecretRef.name = "mcp-token";
        Container c = server(ManifestFactory.build(check(r), 1).deployment().getSpec().getTemplate().getSpec());
        assertEquals("pg", env(c, "RAGSEARCH_DB_URL").getValueFrom().getSecretKeyRef().getName());
        assertEquals("password", env(c, "RAGSEARCH_DB_PASSWORD").getValueFrom().getSecretKeyRef().getKey());
        assertEquals("token", env(c, "RAGSEARCH_AUTH_TOKEN").getValueFrom().getSecretKeyRef().getKey());
        assertEquals("mcp-token", env(c, "RAGSEARCH_AUTH_TOKEN").getValueFrom().getSecretKeyRef().getName());
    }

    /** spec.auth jwt: the server's auth section in the ConfigMap, the pod's own token and CA projected, no static token. */
    @Test
    void jwtAuthIsRenderedWithTheKubernetesKeysProjected() {
        RagSearch r = base();
        r.getSpec().auth = SpecCheckTest.jwt();
        Manifests m = ManifestFactory.build(check(r), 1);
        ServerSettings config = RenderedSettings.parse(m.configMap().getData().get("config.yaml"));
        ServerSettings.Auth auth = config.auth();
        assertEquals("jwt", auth.mode());
        assertEquals("https://kubernetes.default.svc.cluster.local", auth.issuer());
        assertEquals(java.util.List.of("ragsearch.search"), auth.audiences());
        assertEquals("/var/run/secrets/ragsearch/kube-api/ca.crt", auth.caFile());
        assertEquals("/var/run/secrets/ragsearch/kube-api/token", auth.tokenFile());
        assertEquals(java.util.List.of("agents:hr-agent"), auth.access().get(0).serviceAccounts());
        assertEquals(java.util.List.of(r.getSpec().projects.get(0).name), auth.access().get(0).projects());

        PodSpec pod = m.deployment().getSpec().getTemplate().getSpec();
        Volume kube = volume(pod, "kube-api-access");
        assertEquals("token", kube.getProjected().getSources().get(0).getServiceAccountToken().getPath());
        assertEquals("kube-root-ca.crt", kube.getProjected().getSources().get(1).getConfigMap().getName());
        assertEquals("/var/run/secrets/ragsearch/kube-api", mount(server(pod), "kube-api-access").getMountPath());
        assertEquals(Boolean.FALSE, pod.getAutomountServiceAccountToken(), "only the projected token, not the automounted one");
        assertTrue(server(pod).getEnv().stream().noneMatch(e -> e.getName().equals("RAGSEARCH_AUTH_TOKEN")));

        r.getSpec().auth.kubernetesKeys = null; // another OIDC issuer: nothing of the cluster's mounted
        PodSpec plain = ManifestFactory.build(check(r), 1).deployment().getSpec().getTemplate().getSpec();
        assertTrue(plain.getVolumes().stream().noneMatch(v -> v.getName().equals("kube-api-access")));
    }

    @Test
    void theConfigHashFollowsThePodSpecAndTheConfigAndNothingElse() {
        String hash = ManifestFactory.build(check(base()), 1).configHash();
        assertEquals(hash, ManifestFactory.build(check(base()), 1).configHash(), "stable");
        assertNotEquals(hash, ManifestFactory.build(check(base()), 2).configHash(), "concurrency is in the env");
        RagSearch gate = base();
        gate.getSpec().gate = new io.ragsearch.operator.model.Gate();
        gate.getSpec().gate.threshold = 0.6;
        assertNotEquals(hash, ManifestFactory.build(check(gate), 1).configHash(), "the server config counts");
        Manifests m = ManifestFactory.build(check(base()), 1);
        assertEquals(hash, m.deployment().getSpec().getTemplate().getMetadata().getAnnotations().get(Labels.CONFIG_HASH));
    }

    private static RagSearch base() {
        return SpecCheckTest.valid();
    }

    private static CheckedSpec check(RagSearch r) {
        return SpecCheck.check(r, null).spec().orElseThrow();
    }

    private static Container server(PodSpec pod) {
        return pod.getContainers().get(0);
    }

    private static EnvVar env(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no env " + name));
    }

    private static VolumeMount mount(Container c, String volume) {
        return c.getVolumeMounts().stream().filter(m -> m.getName().equals(volume)).findFirst()
                .orElseThrow(() -> new AssertionError("no mount of " + volume));
    }

    private static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }

    @Test
    void theAdminPortIsOpenOnlyToTheOperatorsNamespaceAndAnOptionalScraper() {
        RagSearch r = base();
        r.getSpec().networkPolicy = new io.ragsearch.operator.model.NetworkAccess();
        var np = ManifestFactory.build(check(r), 1, "", new AdminAccess("ragsearch-system", "monitoring",
                java.util.Map.of("app", "prometheus"))).networkPolicy();
        var admin = np.getSpec().getIngress().get(1);
        assertEquals(8081, admin.getPorts().get(0).getPort().getIntVal());
        assertEquals(java.util.Map.of(AdminAccess.NAMESPACE_NAME_LABEL, "ragsearch-system"),
                admin.getFrom().get(0).getNamespaceSelector().getMatchLabels(), "not the operator's label in any namespace");
        assertEquals(java.util.Map.of(Labels.LABEL_NAME, Labels.MANAGED_BY), admin.getFrom().get(0).getPodSelector().getMatchLabels());
        assertEquals(java.util.Map.of(AdminAccess.NAMESPACE_NAME_LABEL, "monitoring"),
                admin.getFrom().get(1).getNamespaceSelector().getMatchLabels());
        assertEquals(java.util.Map.of("app", "prometheus"), admin.getFrom().get(1).getPodSelector().getMatchLabels());

        // Issue 21: the policy covers a verification's candidate pod too (its admin port takes the POST that sends
        // the bearer token out), and lets that candidate reach the serving pods' MCP port.
        var manifests = ManifestFactory.build(check(r), 1, "", new AdminAccess("ops", null, null));
        java.util.Map<String, String> selects = np.getSpec().getPodSelector().getMatchLabels();
        java.util.Map<String, String> serving = manifests.deployment().getSpec().getTemplate().getMetadata().getLabels();
        assertTrue(serving.entrySet().containsAll(selects.entrySet()), "selects the serving pods: " + selects);
        java.util.Map<String, String> candidate = new java.util.HashMap<>(serving);
        candidate.put(Labels.LABEL_NAME, Labels.CANDIDATE_NAME);
        candidate.put(Labels.LABEL_ROLE, Labels.ROLE_CANDIDATE);
        assertTrue(candidate.entrySet().containsAll(selects.entrySet()), "selects the candidate pods: " + selects);
        var mcp = np.getSpec().getIngress().get(0);
        assertEquals(8080, mcp.getPorts().get(0).getPort().getIntVal());
        assertTrue(mcp.getFrom().stream().anyMatch(p -> p.getNamespaceSelector() == null
                && candidate.entrySet().containsAll(p.getPodSelector().getMatchLabels().entrySet())), "the candidate reaches MCP");

        var unscraped = ManifestFactory.build(check(r), 1, "", new AdminAccess("ops", null, null)).networkPolicy();
        assertEquals(1, unscraped.getSpec().getIngress().get(1).getFrom().size(), "no scraper unless configured");
    }
}
