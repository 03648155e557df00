package io.ragsearch.sim.endtoend;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsOrArray;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The project's CRD on a real API server (the testplane): accepted at CRD creation, where the
 * server checks the structural schema and estimates every CEL rule's cost itself; then, case by
 * case, a RagSearch at every bound the schema declares accepted, one past it refused with the
 * server's own message, every required field's absence refused, every CEL rule's both sides.
 * The cases are derived from the generated CRD, so a new bound gets its cases without an edit here.
 */
class RealCrdIT {
    static final String CRD = "/META-INF/fabric8/ragsearches.ragsearch.io-v1.yml";
    static final ObjectMapper JSON = new ObjectMapper();

    static ControlPlane plane;
    static KubernetesClient client;
    static CustomResourceDefinition crd;
    static String ns;
    static final AtomicInteger names = new AtomicInteger();
    static final AtomicInteger accepted = new AtomicInteger();
    static final AtomicInteger refused = new AtomicInteger();

    /** One RagSearch spec and what the server must answer: accept, or refuse saying {@code says} about {@code field}. */
    record Case(String name, Map<String, Object> spec, boolean accept, String says, String field) {
    }

    @BeforeAll
    static void installCrd() throws Exception {
        plane = ControlPlane.get();
        client = plane.adminClient();
        try (InputStream in = RealCrdIT.class.getResourceAsStream(CRD)) {
            assertNotNull(in, CRD + " on the class path");
            crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
        }
        plane.applyRagSearchCrd(client);
        ns = plane.namespace("real-crd");
    }

    @AfterAll
    static void close() {
        System.out.printf("RealCrdIT: %d accepted, %d refused as expected%n", accepted.get(), refused.get());
        if (client != null) {
            // the cases' RagSearches go with their namespace (the real namespace controller empties it)
            client.namespaces().withName(ns).delete();
            client.namespaces().withName(ns).waitUntilCondition(java.util.Objects::isNull, 120, TimeUnit.SECONDS);
            client.close();
        }
    }

    @Test
    void theApiServerIsTheOneWeBuilt() {
        assertEquals("v1.37.2", client.getKubernetesVersion().getGitVersion());
        assertEquals("1", client.getKubernetesVersion().getMajor());
        assertEquals("37", client.getKubernetesVersion().getMinor());
    }

    /**
     * The scale subresource, as kubectl and an autoscaler use it: {@code kubectl scale} writes
     * spec.replicas through /scale, and /scale reports status.replicas and the selector as the
     * operator writes them (no operator here: the test writes the status as it would).
     */
    @Test
    void kubectlScaleMovesSpecReplicasThroughTheScaleSubresource() throws Exception {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("ragsearch.io/v1alpha1");
        r.setKind("RagSearch");
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("scaled").withNamespace(ns).build());
        r.setAdditionalProperty("spec", yaml(DOWNLOAD));
        client.resource(r).create();
        Path kubectl = io.ragsearch.sim.cluster.HelmCli.kubectl();
        Process p = new ProcessBuilder(kubectl.toString(), "--kubeconfig", plane.kubeconfigFile().toString(), "-n", ns,
                // The full name: another test here makes a CRD of another group with the same short name "rags".
                "scale", "ragsearches.ragsearch.io", "scaled", "--replicas", "3").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "kubectl scale did not finish");
        assertEquals(0, p.exitValue(), out);
        assertEquals("ragsearch.ragsearch.io/scaled scaled", out);
        GenericKubernetesResource scaled = client.genericKubernetesResources("ragsearch.io/v1alpha1", "RagSearch").inNamespace(ns)
                .withName("scaled").get();
        assertEquals(3, ((Map<?, ?>) scaled.getAdditionalProperties().get("spec")).get("replicas"));

        scaled.setAdditionalProperty("status", Map.of("replicas", 3, "selector", "app.kubernetes.io/name=ragsearch,app.kubernetes.io/instance=scaled"));
        client.genericKubernetesResources("ragsearch.io/v1alpha1", "RagSearch").inNamespace(ns).resource(scaled).updateStatus();
        String scale = client.raw("/apis/ragsearch.io/v1alpha1/namespaces/" + ns + "/ragsearches/scaled/scale");
        Map<?, ?> view = Serialization.unmarshal(scale, Map.class);
        assertEquals("Scale", view.get("kind"), scale);
        assertEquals(Map.of("replicas", 3), view.get("spec"), scale);
        assertEquals(3, ((Map<?, ?>) view.get("status")).get("replicas"), scale);
        assertEquals("app.kubernetes.io/name=ragsearch,app.kubernetes.io/instance=scaled", ((Map<?, ?>) view.get("status")).get("selector"), scale);
    }

    // ---- the cases ---------------------------------------------------------------------------

    static final String SHA = "0123456789abcdef".repeat(4);

    /** Sets every optional field the schema has, so each bound has a place to be tried. */
    static final String RICH = """
            image: ragsearch/search-server:0.1.0
            replicas: 2
            startupTimeoutSeconds: 600
            resources: {memory: 1500Mi, cpu: "2", heap: 256Mi, modelsSize: 1Gi, tmpSize: 1Gi}
            auth: {bearerTokenSecretRef: {name: token}}
            database: {secretRef: {name: db}}
            gate: {threshold: 0.5}
            models:
              embedding: {builtin: all-minilm-l6-v2, maxSeqLen: 256}
              reranker: {url: "https://models.invalid/r.onnx", sha256: "%s", maxSeqLen: 256}
            networkPolicy: {clientNamespaceLabels: {team: a}, clientPodLabels: {app: c}}
            podDisruptionBudget: {minAvailable: 1}
            autoscaling: {minReplicas: 1, maxReplicas: 1000, targetCPUUtilizationPercentage: 60,
                          targetMemoryUtilizationPercentage: 80, scaleDownStabilizationSeconds: 300}
            projects:
              - {name: handbook, description: d, language: en, retrieval: hybrid, gate: {threshold: 0.5}, source: {configMap: docs}}
            rerank: {concurrency: auto, force: false, headroomPercent: 10, intraOpThreads: 2, queueTimeoutMillis: 1000}
            verification: {configMap: checks, key: checks.yaml, timeoutSeconds: 900}
            pod:
              annotations: {a: b}
              labels: {l: v}
              nodeSelector: {n: v}
              platformAssignsUser: false
              preStopDelaySeconds: 5
              priorityClassName: high
              tolerations: [{key: k, operator: Exists, effect: NoSchedule}]
              imagePullSecrets: [{name: pull}]
              topologySpreadConstraints:
                - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [pod-template-hash],
                   labelSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}}
              affinity:
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms:
                      - matchExpressions: [{key: k, operator: In, values: [x]}]
                        matchFields: [{key: metadata.name, operator: In, values: [n]}]
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 1
                      preference:
                        matchExpressions: [{key: k, operator: In, values: [x]}]
                        matchFields: [{key: metadata.name, operator: In, values: [n]}]
                podAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    - topologyKey: zone
                      namespaces: [a]
                      matchLabelKeys: [k]
                      mismatchLabelKeys: [m]
                      labelSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                      namespaceSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 1
                      podAffinityTerm:
                        topologyKey: zone
                        namespaces: [a]
                        matchLabelKeys: [k]
                        mismatchLabelKeys: [m]
                        labelSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                        namespaceSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                podAntiAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    - topologyKey: zone
                      namespaces: [a]
                      matchLabelKeys: [k]
                      mismatchLabelKeys: [m]
                      labelSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                      namespaceSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 1
                      podAffinityTerm:
                        topologyKey: zone
                        namespaces: [a]
                        matchLabelKeys: [k]
                        mismatchLabelKeys: [m]
                        labelSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
                        namespaceSelector: {matchLabels: {a: b}, matchExpressions: [{key: k, operator: In, values: [x]}]}
            """.formatted(SHA);

    /** The other side of the model sources: volumes instead of built-ins and downloads. */
    static final String VOLUMES = """
            image: ragsearch/search-server:0.1.0
            resources: {memory: 1500Mi}
            models:
              embedding: {pvc: {claimName: models, path: e5}}
              reranker: {pvc: {claimName: models, path: reranker}}
            projects:
              - {name: rules, source: {database: true}}
            """;

    /** The third combination: a downloaded embedding model, the built-in reranker. */
    static final String DOWNLOAD = """
            image: ragsearch/search-server:0.1.0
            resources: {memory: 1500Mi}
            models:
              embedding: {url: "https://models.invalid/e5.onnx", sha256: "%s"}
              reranker: {builtin: minilm-pair}
            projects:
              - {name: rules, source: {configMap: rules}}
            """.formatted(SHA);

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String text) {
        return (Map<String, Object>) Serialization.unmarshal(text, Map.class);
    }

    static List<Map<String, Object>> bases() {
        return List.of(yaml(RICH), yaml(VOLUMES), yaml(DOWNLOAD));
    }

    static JSONSchemaProps specSchema() {
        return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("the rich spec", bases().get(0), true, null, null));
        cases.add(new Case("the volumes spec", bases().get(1), true, null, null));
        cases.add(new Case("the download spec", bases().get(2), true, null, null));
        walk(new ArrayList<>(), specSchema(), cases);
        celCases(cases);
        return cases;
    }

    /** Path segments: a property name, "[]" (the list's first item) or "{}" (the map's first entry). */
    static void walk(List<String> path, JSONSchemaProps s, List<Case> out) {
        if (s == null) {
            return;
        }
        boundsOf(path, s, out);
        if (s.getProperties() != null) {
            s.getProperties().forEach((k, v) -> walk(plus(path, k), v, out));
        }
        JSONSchemaPropsOrArray items = s.getItems();
        if (items != null && items.getSchema() != null) {
            walk(plus(path, "[]"), items.getSchema(), out);
        }
        if (s.getAdditionalProperties() != null && s.getAdditionalProperties().getSchema() != null) {
            walk(plus(path, "{}"), s.getAdditionalProperties().getSchema(), out);
        }
    }

    static void boundsOf(List<String> path, JSONSchemaProps s, List<Case> out) {
        if (path.isEmpty()) {
            for (String r : s.getRequired()) {
                out.add(set("spec without required " + r, bases().get(0), List.of(r), REMOVE, false, "Required value", "spec." + r));
            }
            return;
        }
        String p = String.join(".", path).replace(".[]", "[]").replace(".{}", "{}");
        // a base that sets the value (so a choice among fields stays as it is), else one where its container exists
        List<Map<String, Object>> candidates = new ArrayList<>(bases().stream().filter(b -> value(b, path) != null).toList());
        candidates.addAll(bases().stream().filter(b -> value(b, path) == null).toList());
        for (Map<String, Object> base : candidates) {
            Object container = container(base, path);
            if (container == null) {
                continue;
            }
            String field = serverPath(path);
            if (s.getMinimum() != null || s.getMaximum() != null) {
                boolean integer = "integer".equals(s.getType());
                Number step = integer ? (Number) 1 : (Number) 0.5;
                if (s.getMinimum() != null) {
                    Number min = integer ? (Number) s.getMinimum().longValue() : s.getMinimum();
                    out.add(set(p + " = minimum " + min, base, path, min, true, null, field));
                    out.add(set(p + " below minimum", base, path, minus(min, step), false, "greater than or equal to " + fmt(min), field));
                }
                if (s.getMaximum() != null) {
                    Number max = integer ? (Number) s.getMaximum().longValue() : s.getMaximum();
                    out.add(set(p + " = maximum " + max, base, path, max, true, null, field));
                    out.add(set(p + " above maximum", base, path, plus(max, step), false, "less than or equal to " + fmt(max), field));
                }
            }
            if (s.getMaxLength() != null) {
                int n = s.getMaxLength().intValue();
                String atBound = filler(s, n);
                if (atBound != null && celAllows(s, atBound)) {
                    out.add(set(p + " at maxLength " + n, base, path, atBound, true, null, field));
                }
                out.add(set(p + " past maxLength " + n, base, path, "a".repeat(n + 1), false, "Too long", field));
            }
            if (s.getPattern() != null && !Pattern.compile(s.getPattern()).matcher("!").find()) {
                out.add(set(p + " not matching its pattern", base, path, "!", false, "should match", field));
            }
            if (s.getMaxItems() != null && "array".equals(s.getType())) {
                int n = s.getMaxItems().intValue();
                // Accepted at the bound only when the list can be filled with valid items: an example item in the
                // base, or plain strings (an object or patterned item made up from "v0" is refused for itself).
                JSONSchemaProps item = s.getItems() == null ? null : s.getItems().getSchema();
                boolean fillable = value(base, plus(path, "[]")) != null
                        || (item != null && "string".equals(item.getType()) && item.getPattern() == null && item.getEnum() == null);
                if (fillable) {
                    out.add(set(p + " with maxItems " + n, base, path, list(base, path, s, n), true, null, field));
                }
                out.add(set(p + " past maxItems " + n, base, path, list(base, path, s, n + 1), false, "must have at most " + n + " items", field));
            }
            if (s.getMinItems() != null && s.getMinItems() > 0) {
                int n = s.getMinItems().intValue();
                out.add(set(p + " below minItems " + n, base, path, list(base, path, s, n - 1), false, "should have at least " + n + " items", field));
            }
            if (s.getMaxProperties() != null) {
                int n = s.getMaxProperties().intValue();
                out.add(set(p + " with maxProperties " + n, base, path, map(n), true, null, field));
                out.add(set(p + " past maxProperties " + n, base, path, map(n + 1), false, "must have at most " + n + " items", field));
            }
            if (s.getRequired() != null && value(base, path) instanceof Map) {
                for (String r : s.getRequired()) {
                    out.add(set(p + " without required " + r, base, plus(path, r), REMOVE, false, "Required value", field + "." + r));
                }
            }
            return;
        }
    }

    static void celCases(List<Case> out) {
        Map<String, Object> rich = bases().get(0);
        String oneOf = celMessage("spec.models.embedding", "filter");
        String urlSha = celMessage("spec.models.embedding", "sha256");
        String source = celMessage("spec.projects[].source", "database");
        String concurrency = celMessage("spec.rerank.concurrency", "auto");
        List<String> emb = List.of("models", "embedding");
        out.add(set("embedding: builtin and url", rich, emb, Map.of("builtin", "e5", "url", "https://m.invalid/e", "sha256", SHA), false, oneOf, "spec.models.embedding"));
        out.add(set("embedding: none of builtin, pvc, url", rich, emb, Map.of("maxSeqLen", 256), false, oneOf, "spec.models.embedding"));
        out.add(set("embedding: builtin and pvc", rich, emb, Map.of("builtin", "e5", "pvc", Map.of("claimName", "m")), false, oneOf, "spec.models.embedding"));
        out.add(set("embedding: url without sha256", rich, emb, Map.of("url", "https://m.invalid/e"), false, urlSha, "spec.models.embedding"));
        out.add(set("embedding: url with sha256", rich, emb, Map.of("url", "https://m.invalid/e", "sha256", SHA), true, null, null));
        List<String> src = List.of("projects", "[]", "source");
        out.add(set("source: neither", rich, src, Map.of(), false, source, "spec.projects[0].source"));
        out.add(set("source: both", rich, src, Map.of("database", true, "configMap", "d"), false, source, "spec.projects[0].source"));
        out.add(set("source: database false", rich, src, Map.of("database", false), false, source, "spec.projects[0].source"));
        out.add(set("source: database false and a configMap", rich, src, Map.of("database", false, "configMap", "d"), true, null, null));
        out.add(set("source: database true", rich, src, Map.of("database", true), true, null, null));
        List<String> conc = List.of("rerank", "concurrency");
        out.add(set("concurrency 0", rich, conc, 0, false, concurrency, "spec.rerank.concurrency"));
        out.add(set("concurrency -1", rich, conc, -1, false, concurrency, "spec.rerank.concurrency"));
        out.add(set("concurrency 'many'", rich, conc, "many", false, concurrency, "spec.rerank.concurrency"));
        out.add(set("concurrency 1", rich, conc, 1, true, null, null));
        out.add(set("concurrency 10000", rich, conc, 10000, true, null, null));
        out.add(set("concurrency auto", rich, conc, "auto", true, null, null));
        String order = celMessage("spec.autoscaling", "<=");
        String target = celMessage("spec.autoscaling", "has(self.targetCPU");
        List<String> auto = List.of("autoscaling");
        out.add(set("autoscaling: minReplicas above maxReplicas", rich, auto, Map.of("minReplicas", 3, "maxReplicas", 2,
                "targetCPUUtilizationPercentage", 60), false, order, "spec.autoscaling"));
        out.add(set("autoscaling: minReplicas equal to maxReplicas", rich, auto, Map.of("minReplicas", 2, "maxReplicas", 2,
                "targetCPUUtilizationPercentage", 60), true, null, null));
        out.add(set("autoscaling: no target", rich, auto, Map.of("maxReplicas", 2), false, target, "spec.autoscaling"));
        out.add(set("autoscaling: a memory target only, no minReplicas", rich, auto, Map.of("maxReplicas", 2,
                "targetMemoryUtilizationPercentage", 80), true, null, null));
        out.add(set("two projects with one name", rich, List.of("projects"), List.of(
                Map.of("name", "a", "source", Map.of("configMap", "x")), Map.of("name", "a", "source", Map.of("configMap", "y"))),
                false, "Duplicate value", "spec.projects[1]"));
    }

    /** The message of the CEL rule at {@code path} whose text contains {@code ruleHas}. */
    static String celMessage(String path, String ruleHas) {
        JSONSchemaProps s = specSchema();
        for (String seg : path.substring("spec.".length()).split("\\.")) {
            boolean list = seg.endsWith("[]");
            s = s.getProperties().get(list ? seg.substring(0, seg.length() - 2) : seg);
            if (list) {
                s = s.getItems().getSchema();
            }
        }
        return s.getXKubernetesValidations().stream().filter(r -> r.getRule().contains(ruleHas))
                .map(ValidationRule::getMessage).findFirst().orElseThrow(() -> new AssertionError("no rule with " + ruleHas + " at " + path));
    }

    /** A value of length n the schema's pattern and enum allow, or null when none of the tries fits. */
    static String filler(JSONSchemaProps s, int n) {
        List<String> tries = new ArrayList<>(List.of("a".repeat(n), "1".repeat(n), n > 8 ? "https://" + "a".repeat(n - 8) : ""));
        if (s.getPattern() != null) {
            Matcher alternatives = Pattern.compile("\\^\\(([a-z|]+)\\)\\$").matcher(s.getPattern());
            if (alternatives.matches()) {
                tries.addAll(List.of(alternatives.group(1).split("\\|")));
            }
        }
        for (String t : tries) {
            if (t.length() == n && (s.getPattern() == null || Pattern.compile(s.getPattern()).matcher(t).find())) {
                return t;
            }
        }
        return null;
    }

    /** A string where a CEL rule wants a number or one word: only "auto" passes the concurrency rule. */
    static boolean celAllows(JSONSchemaProps s, String value) {
        return s.getXKubernetesValidations() == null || s.getXKubernetesValidations().isEmpty();
    }

    static final Object REMOVE = new Object();

    @SuppressWarnings("unchecked")
    static Case set(String name, Map<String, Object> base, List<String> path, Object value, boolean accept, String says, String field) {
        Map<String, Object> spec = copy(base);
        Object container = container(spec, path);
        String last = path.get(path.size() - 1);
        if (container instanceof Map<?, ?> m) {
            Map<String, Object> map = (Map<String, Object>) m;
            String key = last.equals("{}") ? map.keySet().iterator().next() : last;
            if (value == REMOVE) {
                map.remove(key);
            } else {
                map.put(key, value);
            }
        } else if (container instanceof List<?> l) {
            ((List<Object>) l).set(0, value);
        } else {
            throw new IllegalStateException(name + ": no container at " + path);
        }
        return new Case(name, spec, accept, says, field);
    }

    /** The object or list holding the value at path, or null when the base lacks it. */
    static Object container(Map<String, Object> spec, List<String> path) {
        Object at = spec;
        for (String seg : path.subList(0, path.size() - 1)) {
            at = step(at, seg);
            if (at == null) {
                return null;
            }
        }
        String last = path.get(path.size() - 1);
        if (last.equals("[]")) {
            return at instanceof List<?> l && !l.isEmpty() ? at : null;
        }
        if (last.equals("{}")) {
            return at instanceof Map<?, ?> m && !m.isEmpty() ? at : null;
        }
        return at instanceof Map ? at : null;
    }

    static Object value(Map<String, Object> spec, List<String> path) {
        Object c = container(spec, path);
        return c == null ? null : step(c, path.get(path.size() - 1));
    }

    static Object step(Object at, String seg) {
        if (seg.equals("[]")) {
            return at instanceof List<?> l && !l.isEmpty() ? l.get(0) : null;
        }
        if (at instanceof Map<?, ?> m) {
            return seg.equals("{}") ? (m.isEmpty() ? null : m.values().iterator().next()) : m.get(seg);
        }
        return null;
    }

    /** n items like the base's first, list-map keys made distinct. */
    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> base, List<String> path, JSONSchemaProps s, int n) {
        Object first = value(base, plus(path, "[]"));
        List<String> keys = s.getXKubernetesListMapKeys() == null ? List.of() : s.getXKubernetesListMapKeys();
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object item = first == null ? "v" + i : JSON.convertValue(first, Object.class);
            if (item instanceof Map<?, ?> m) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) m);
                for (String k : keys) {
                    copy.put(k, "k" + i);
                }
                item = copy;
            } else if (item instanceof String) {
                item = "v" + i;
            }
            items.add(item);
        }
        return items;
    }

    static Map<String, Object> map(int n) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put("k" + i, "v");
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> copy(Map<String, Object> m) {
        return JSON.convertValue(m, Map.class);
    }

    static List<String> plus(List<String> path, String seg) {
        List<String> p = new ArrayList<>(path);
        p.add(seg);
        return p;
    }

    /** How the API server names a field: spec.projects[0].name; a map entry as its map. */
    static String serverPath(List<String> path) {
        StringBuilder b = new StringBuilder("spec");
        for (String seg : path) {
            if (seg.equals("{}")) {
                break;
            }
            b.append(seg.equals("[]") ? "[0]" : "." + seg);
        }
        return b.toString();
    }

    static Number minus(Number a, Number b) {
        return a instanceof Long ? (Number) (a.longValue() - b.longValue()) : (Number) (a.doubleValue() - b.doubleValue());
    }

    static Number plus(Number a, Number b) {
        return a instanceof Long ? (Number) (a.longValue() + b.longValue()) : (Number) (a.doubleValue() + b.doubleValue());
    }

    static String fmt(Number n) {
        return n instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue()) : String.valueOf(n);
    }

    @TestFactory
    Stream<DynamicTest> everyBoundAcceptedAtItAndRefusedPastItByTheRealServer() {
        List<Case> cases = cases();
        long accepts = cases.stream().filter(Case::accept).count();
        System.out.printf("RealCrdIT: %d cases, %d to accept, %d to refuse%n", cases.size(), accepts, cases.size() - accepts);
        assertTrue(cases.size() > 80, "cases derived from the CRD: " + cases.size());
        return cases.stream().map(c -> dynamicTest(c.name(), () -> check(c)));
    }

    static void check(Case c) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("ragsearch.io/v1alpha1");
        r.setKind("RagSearch");
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("r" + names.incrementAndGet())
                .withNamespace(ns).build());
        r.setAdditionalProperty("spec", c.spec());
        if (c.accept()) {
            try {
                GenericKubernetesResource created = client.resource(r).create();
                assertNotNull(created.getMetadata().getUid());
                accepted.incrementAndGet();
            } catch (KubernetesClientException e) {
                fail(c.name() + ": refused by the real API server: " + message(e));
            }
            return;
        }
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client.resource(r).create(),
                c.name() + ": accepted by the real API server");
        String m = message(e);
        assertEquals(422, e.getCode(), c.name() + ": " + m);
        assertTrue(m.contains(c.says()), c.name() + ": expected \"" + c.says() + "\" in: " + m);
        assertTrue(c.field() == null || m.contains(c.field()), c.name() + ": expected the field " + c.field() + " in: " + m);
        refused.incrementAndGet();
    }

    static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : String.valueOf(e.getMessage());
    }

    // ---- the cost of CEL rules, judged by the real server ----------------------------------

    /** The server's words; past 100 it only says "more than 100x". */
    static final Pattern FACTOR = Pattern.compile("exceeds budget by factor of (more than )?([0-9.]+)x");

    /**
     * The rule this CRD once had (every project name unique, quadratic) on its old, unbounded
     * schema: the real server refuses the CRD at creation. On today's bounds the same rule fits.
     */
    @Test
    void aRuleOverTheCostBudgetIsRefusedAtCrdCreation() throws Exception {
        String quadratic = "self.projects.all(p, self.projects.exists_one(q, q.name == p.name))";
        CustomResourceDefinition unbounded = variant("costly", quadratic, true);
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.apiextensions().v1().customResourceDefinitions().resource(unbounded).create());
        String m = message(e);
        assertEquals(422, e.getCode(), m);
        assertTrue(m.contains("x-kubernetes-validations[0].rule") && m.contains("estimated rule cost exceeds budget"), m);
        Matcher f = FACTOR.matcher(m);
        assertTrue(f.find(), m);
        double serverFactor = Double.parseDouble(f.group(2));
        boolean serverCapped = f.group(1) != null;
        System.out.printf("CEL cost  quadratic rule, unbounded: real server %s%.1fx the budget%n",
                serverCapped ? "more than " : "", serverFactor);
        assertTrue(serverFactor > 1, "over budget");

        CustomResourceDefinition bounded = variant("bounded", quadratic, false);
        client.apiextensions().v1().customResourceDefinitions().resource(bounded).create();
        client.apiextensions().v1().customResourceDefinitions().resource(bounded).delete();
    }

    /** The project's CRD under another group, with one more rule on spec; optionally without list and string bounds. */
    static CustomResourceDefinition variant(String group, String rule, boolean unbound) throws IOException {
        CustomResourceDefinition c;
        try (InputStream in = RealCrdIT.class.getResourceAsStream(CRD)) {
            c = Serialization.unmarshal(in, CustomResourceDefinition.class);
        }
        String g = group + ".ragsearch.test";
        c.getMetadata().setName(c.getSpec().getNames().getPlural() + "." + g);
        c.getMetadata().setResourceVersion(null);
        c.getSpec().setGroup(g);
        JSONSchemaProps spec = c.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        List<ValidationRule> rules = new ArrayList<>(spec.getXKubernetesValidations() == null ? List.of() : spec.getXKubernetesValidations());
        rules.add(0, new io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder()
                .withRule(rule).withMessage("project names repeat").build());
        spec.setXKubernetesValidations(rules);
        if (unbound) {
            JSONSchemaProps projects = spec.getProperties().get("projects");
            projects.setMaxItems(null);
            projects.getItems().getSchema().getProperties().get("name").setMaxLength(null);
        }
        return c;
    }

    @Test
    void theProjectsCrdIsStoredAsWrittenNothingPruned() {
        CustomResourceDefinition stored = client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).get();
        assertFalse(stored.getStatus().getConditions().stream()
                .anyMatch(x -> "NonStructuralSchema".equals(x.getType()) && "True".equals(x.getStatus())), "structural");
        assertEquals(crd.getSpec().getVersions().get(0).getSchema(), stored.getSpec().getVersions().get(0).getSchema());
    }
}
