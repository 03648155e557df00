package io.ragsearch.operator.spec;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Models;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.ProjectSource;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.Rerank;
import io.ragsearch.operator.model.Resources;
import io.ragsearch.operator.model.SecretKeys;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class SpecCheckTest {

    /** Mode jwt with the cluster's ServiceAccount tokens: hr-agent reads the first project. */
    public static Auth jwt() {
        Auth auth = new Auth();
        auth.mode = "jwt";
        auth.issuer = "https://kubernetes.default.svc.cluster.local";
        auth.audiences = java.util.List.of("ragsearch.search");
        auth.kubernetesKeys = true;
        io.ragsearch.operator.model.AccessRule rule = new io.ragsearch.operator.model.AccessRule();
        rule.projects = java.util.List.of(valid().getSpec().projects.get(0).name);
        rule.serviceAccounts = java.util.List.of("agents:hr-agent");
        auth.access = java.util.List.of(rule);
        return auth;
    }

    /** spec.auth: the server's own rules on what would be rendered, and static vs jwt kept apart. */
    @Test
    void authModesAreCheckedAsTheServerChecksThem() {
        RagSearch r = valid();
        r.getSpec().auth = jwt();
        assertEquals(List.of(), SpecCheck.check(r, null).problems());

        r.getSpec().auth.audiences = List.of();
        r.getSpec().auth.bearerTokenSecretRef = new SecretKeys();
        r.getSpec().auth.bearerTokenSecretRef.name = "token";
        r.getSpec().auth.algorithms = List.of("HS256");
        List<String> problems = SpecCheck.check(r, null).problems();
        assertTrue(problems.contains("spec.auth.bearerTokenSecretRef belongs to mode static: with jwt each caller brings its own token"),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("spec.auth.audiences needs at least one")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("spec.auth.algorithms: 'HS256' is not allowed")), problems.toString());

        RagSearch s = valid();
        s.getSpec().auth = new Auth();
        assertEquals(List.of("spec.auth.bearerTokenSecretRef is required with mode static (the default)"),
                SpecCheck.check(s, null).problems());
        s.getSpec().auth.mode = "oauth";
        assertEquals(List.of("spec.auth.mode must be static or jwt (got 'oauth')"), SpecCheck.check(s, null).problems());
    }

    @Test
    void parsesQuantitiesAndAppliesDefaults() {
        CheckedSpec c = SpecCheck.check(valid(), null).spec().orElseThrow();
        assertEquals(1500L * 1024 * 1024, c.memoryBytes());
        assertEquals(1500L, c.cpuMillis());
        assertEquals(1, c.replicas());
        assertEquals(10, c.headroomPercent());
        assertEquals("auto", c.requested());
        assertEquals("builtin:minilm-pair", c.rerankerSource());
        assertEquals(600, c.startupTimeoutSeconds());
    }

    @Test
    void decimalUnitsAndNoCpu() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "2G";
        r.getSpec().resources.cpu = null;
        CheckedSpec c = SpecCheck.check(r, null).spec().orElseThrow();
        assertEquals(2_000_000_000L, c.memoryBytes());
        assertNull(c.cpuMillis());
    }

    @Test
    void listsEveryProblemAtOnce() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "1.5 GB";
        r.getSpec().resources.cpu = "0m";
        r.getSpec().projects.add(project("Handbook!", null));
        r.getSpec().projects.add(project("handbook", "other"));
        r.getSpec().rerank = new Rerank();
        r.getSpec().rerank.concurrency = new IntOrString("many");
        r.getSpec().rerank.headroomPercent = 95;
        r.getSpec().models.reranker.url = "https://x/y.zip";
        r.getSpec().auth = new Auth();
        r.getSpec().auth.bearerTokenSecretRef = new SecretKeys();
        r.getSpec().auth.bearerTokenSecretRef.name = "token";
        r.getSpec().verification = new io.ragsearch.operator.model.VerificationSpec();
        r.getSpec().verification.configMap = "checks";
        r.getSpec().verification.timeoutSeconds = 1;
        ReferenceLookup lookup = new ReferenceLookup() {
            public Optional<Set<String>> secretKeys(String ns, String name) {
                return Optional.of(Set.of("other"));
            }

            public boolean configMapExists(String ns, String name) {
                return name.equals("docs");
            }

            public boolean claimExists(String ns, String name) {
                return true;
            }
        };
        List<String> problems = SpecCheck.check(r, lookup).problems();
        String all = String.join("\n", problems);
        for (String expected : List.of("spec.resources.memory '1.5 GB' is not a Kubernetes quantity",
                "spec.resources.cpu must be positive", "name must be 1 to 63 lower-case",
                "needs exactly one of database: true or configMap", "duplicate project name 'handbook'",
                "configMap 'other' not found", "spec.rerank.concurrency must be auto or a whole number of at least 1, got 'many'",
                "headroomPercent must be in [0, 90], got 95", "spec.models.reranker needs exactly one of builtin, pvc, url (got 2)",
                "secret 'token' lacks key(s) token", "spec.verification.configMap 'checks' not found in namespace",
                "spec.verification.timeoutSeconds must be in [5, 86400], got 1")) {
            assertTrue(all.contains(expected), "missing '" + expected + "' in:\n" + all);
        }
        assertEquals(12, problems.size(), all);
    }

    @Test
    void verificationDefaultsAreAppliedByTheCheckNotByTheModel() {
        RagSearch r = valid();
        r.getSpec().verification = new io.ragsearch.operator.model.VerificationSpec();
        r.getSpec().verification.configMap = "checks";
        CheckedSpec.Verification v = SpecCheck.check(r, null).spec().orElseThrow().verification();
        assertEquals(new CheckedSpec.Verification("checks", "checks.yaml", 900), v);
        r.getSpec().verification.key = "smoke.yaml";
        r.getSpec().verification.timeoutSeconds = 86_400;
        assertEquals(new CheckedSpec.Verification("checks", "smoke.yaml", 86_400),
                SpecCheck.check(r, null).spec().orElseThrow().verification());
        r.getSpec().verification = null;
        assertNull(SpecCheck.check(r, null).spec().orElseThrow().verification());
    }

    @Test
    void inAuthModeJwtTheCandidateIsVerifiedWithoutABaseline() {
        RagSearch r = valid();
        r.getSpec().verification = new io.ragsearch.operator.model.VerificationSpec();
        r.getSpec().verification.configMap = "checks";
        io.ragsearch.operator.model.Auth auth = new io.ragsearch.operator.model.Auth();
        auth.mode = "jwt";
        auth.issuer = "https://kubernetes.default.svc.cluster.local";
        auth.audiences = List.of("ragsearch.search");
        io.ragsearch.operator.model.AccessRule rule = new io.ragsearch.operator.model.AccessRule();
        rule.projects = List.of("*");
        rule.serviceAccounts = List.of("agents:hr-agent");
        auth.access = List.of(rule);
        auth.kubernetesKeys = true;
        r.getSpec().auth = auth;
        assertEquals(new CheckedSpec.Verification("checks", "checks.yaml", 900, false),
                SpecCheck.check(r, null).spec().orElseThrow().verification());
    }

    @Test
    void tooSmallMemoryAndForceWithoutNumber() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "128Mi";
        r.getSpec().rerank = new Rerank();
        r.getSpec().rerank.force = true;
        String all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("below 256Mi"), all);
        assertTrue(all.contains("force needs a fixed"), all);
    }

    @Test
    void quantitiesOutOfRangeNameTheFieldAndTheRange() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "9Ei";
        r.getSpec().resources.cpu = "1000000000";
        r.getSpec().resources.tmpSize = "64Mi";
        String all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("spec.resources.memory 9Ei is out of range: between 256Mi and 64Ti"), all);
        assertTrue(all.contains("spec.resources.cpu 1000000000 is out of range: between 1m and 4096 (cores)"), all);
        assertTrue(all.contains("spec.resources.tmpSize 64Mi is below 256Mi"), all);
        r.getSpec().resources.memory = "999999Ti";
        r.getSpec().resources.cpu = "1e4";
        r.getSpec().resources.tmpSize = null;
        all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("spec.resources.memory 999999Ti is out of range: between 256Mi and 64Ti"), all);
        assertTrue(all.contains("spec.resources.cpu 1e4 is out of range"), all);
        assertEquals(2, SpecCheck.check(r, null).problems().size(), all);
    }

    @Test
    void theQuantityGrammarOfKubernetes() {
        RagSearch r = valid();
        for (String[] q : new String[][]{{"1e9", "1000000000"}, {"1E9", "1000000000"}, {"+2Gi", "2147483648"},
                {"1.5Gi", "1610612736"}, {"1536.Mi", "1610612736"}, {"500000k", "500000000"}}) {
            r.getSpec().resources.memory = q[0];
            assertEquals(Long.parseLong(q[1]), SpecCheck.check(r, null).spec().orElseThrow().memoryBytes(), q[0]);
        }
        r.getSpec().resources.memory = "1500Mi";
        for (String[] q : new String[][]{{"2", "2000"}, {".5", "500"}, {"250m", "250"}, {"5e-1", "500"}}) {
            r.getSpec().resources.cpu = q[0];
            assertEquals(Long.parseLong(q[1]), SpecCheck.check(r, null).spec().orElseThrow().cpuMillis(), q[0]);
        }
        for (String bad : List.of("2 cores", "-1", "1e", "Gi", "1.5.2")) {
            r.getSpec().resources.cpu = bad;
            assertTrue(String.join("", SpecCheck.check(r, null).problems()).contains("is not a Kubernetes quantity"), bad);
        }
    }

    @Test
    void aDisruptionBudgetThatBlocksEveryDrainIsRefused() {
        RagSearch r = valid();
        r.getSpec().podDisruptionBudget = new io.ragsearch.operator.model.DisruptionBudget();
        String all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("spec.podDisruptionBudget.minAvailable 1 with spec.replicas 1 would block every node drain"
                + " (no pod may ever be evicted); use at most 0, or run 2 replicas (minAvailable defaults to 1)"), all);
        r.getSpec().replicas = 3;
        r.getSpec().podDisruptionBudget.minAvailable = 3;
        all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("minAvailable 3 with spec.replicas 3 would block every node drain"), all);
        r.getSpec().podDisruptionBudget.minAvailable = 2;
        assertTrue(SpecCheck.check(r, null).valid());
        r.getSpec().replicas = 0;
        assertTrue(SpecCheck.check(r, null).valid(), "scaled to zero: nothing to drain");
    }

    @Test
    void autoscalingStartsAtItsMinimumAndIsCheckedWhereTheSchemaCannotBe() {
        RagSearch r = valid();
        r.getSpec().autoscaling = new io.ragsearch.operator.model.Autoscaling();
        r.getSpec().autoscaling.minReplicas = 2;
        r.getSpec().autoscaling.maxReplicas = 4;
        r.getSpec().autoscaling.targetCPUUtilizationPercentage = 60;
        CheckedSpec c = SpecCheck.check(r, null).spec().orElseThrow();
        assertEquals(2, c.replicas(), "without spec.replicas the pods start at minReplicas");
        assertEquals(new CheckedSpec.Autoscale(2, 4, 60, null, 300), c.autoscale());
        r.getSpec().replicas = 3;
        assertEquals(3, SpecCheck.check(r, null).spec().orElseThrow().replicas(), "the scale subresource's number is kept");

        // a budget is judged against the fewest pods the autoscaler leaves, not today's spec.replicas
        r.getSpec().podDisruptionBudget = new io.ragsearch.operator.model.DisruptionBudget();
        r.getSpec().podDisruptionBudget.minAvailable = 2;
        String all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("minAvailable 2 with spec.autoscaling.minReplicas 2 would block every node drain"), all);
        r.getSpec().podDisruptionBudget.minAvailable = 1;
        assertTrue(SpecCheck.check(r, null).valid());

        r.getSpec().autoscaling.minReplicas = 5;
        r.getSpec().autoscaling.targetCPUUtilizationPercentage = null;
        r.getSpec().autoscaling.scaleDownStabilizationSeconds = 7200;
        all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("spec.autoscaling.minReplicas 5 exceeds maxReplicas 4"), all);
        assertTrue(all.contains("spec.autoscaling needs a target"), all);
        assertTrue(all.contains("spec.autoscaling.scaleDownStabilizationSeconds must be in [0, 3600], got 7200"), all);

        r.getSpec().autoscaling.minReplicas = 2;
        r.getSpec().autoscaling.scaleDownStabilizationSeconds = null;
        r.getSpec().autoscaling.targetCPUUtilizationPercentage = 60;
        r.getSpec().resources.cpu = null;
        all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("targetCPUUtilizationPercentage needs spec.resources.cpu"), all);
        r.getSpec().autoscaling.targetCPUUtilizationPercentage = null;
        r.getSpec().autoscaling.targetMemoryUtilizationPercentage = 80;
        assertTrue(SpecCheck.check(r, null).valid(), "a memory target needs no CPU request");
    }

    @Test
    void podLabelsAndAnnotationsCannotTakeTheOperatorsOwnKeys() {
        RagSearch r = valid();
        r.getSpec().pod = new io.ragsearch.operator.model.PodSettings();
        r.getSpec().pod.labels = java.util.Map.of("app.kubernetes.io/instance", "x", "team", "search");
        r.getSpec().pod.annotations = java.util.Map.of("ragsearch.io/config-hash", "0");
        List<String> problems = SpecCheck.check(r, null).problems();
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("'app.kubernetes.io/instance' is the operator's own label"), problems.toString());
        assertTrue(problems.get(1).contains("'ragsearch.io/config-hash' is the operator's own"), problems.toString());
    }

    @Test
    void theHeapIsASixthOfTheLimitUnlessTheSpecSetsIt() {
        RagSearch r = valid();
        assertEquals(250L << 20, SpecCheck.check(r, null).spec().orElseThrow().heapBytes(), "1500Mi / 6");
        r.getSpec().resources.memory = "512Mi";
        assertEquals(192L << 20, SpecCheck.check(r, null).spec().orElseThrow().heapBytes(), "at least 192Mi");
        r.getSpec().resources.memory = "64Gi";
        assertEquals(4096L << 20, SpecCheck.check(r, null).spec().orElseThrow().heapBytes(), "at most 4Gi by default");
        r.getSpec().resources.heap = "6Gi";
        assertEquals(6144L << 20, SpecCheck.check(r, null).spec().orElseThrow().heapBytes(), "the spec's own");
        r.getSpec().resources.memory = "1500Mi";
        r.getSpec().resources.heap = "1400Mi";
        assertEquals(List.of("spec.resources.heap 1400Mi is out of range: between 64Mi and 1244Mi (the memory limit less 256Mi)"),
                SpecCheck.check(r, null).problems());
    }

    @Test
    void aSha256WithoutAUrlIsRefusedNotIgnored() {
        RagSearch r = valid();
        r.getSpec().models.reranker.sha256 = "a".repeat(64);
        assertEquals(List.of("spec.models.reranker.sha256 goes with url only: nothing checks it for a builtin or pvc model"),
                SpecCheck.check(r, null).problems());
    }

    @Test
    void theVectorCacheClaimIsCheckedLikeAModelsClaim() {
        RagSearch r = valid();
        r.getSpec().vectorCache = new io.ragsearch.operator.model.PvcModel();
        r.getSpec().vectorCache.claimName = "Search_Vectors";
        r.getSpec().vectorCache.path = "../other";
        ReferenceLookup noClaims = new ReferenceLookup() {
            public Optional<Set<String>> secretKeys(String ns, String name) {
                return Optional.empty();
            }

            public boolean configMapExists(String ns, String name) {
                return true;
            }

            public boolean claimExists(String ns, String name) {
                return false;
            }
        };
        String all = String.join("\n", SpecCheck.check(r, noClaims).problems());
        assertTrue(all.contains("spec.vectorCache.claimName"), "a DNS-1123 subdomain: " + all);
        assertTrue(all.contains("spec.vectorCache.path must be a relative path inside the claim (no '..', not absolute), got '../other'"), all);
        assertTrue(all.contains("spec.vectorCache.claimName 'Search_Vectors' not found in namespace ns"), all);

        r.getSpec().vectorCache.claimName = "search-vectors";
        r.getSpec().vectorCache.path = "ko/vectors";
        assertTrue(SpecCheck.check(r, null).valid(), SpecCheck.check(r, null).problems().toString());
    }

    @Test
    void rerankBoundsAreTheSchemasSoRenderRefusesWhatTheApiServerRefuses() {
        RagSearch r = valid();
        r.getSpec().rerank = new io.ragsearch.operator.model.Rerank();
        r.getSpec().rerank.queueTimeoutMillis = io.ragsearch.operator.model.SchemaBounds.QUEUE_TIMEOUT_MAX_MILLIS;
        r.getSpec().rerank.intraOpThreads = io.ragsearch.contract.settings.Bounds.INTRA_OP_THREADS_MAX;
        assertTrue(SpecCheck.check(r, null).valid(), SpecCheck.check(r, null).problems().toString());

        r.getSpec().rerank.queueTimeoutMillis = 600_001;
        assertEquals(List.of("spec.rerank.queueTimeoutMillis must be in [1, 600000], got 600001"), SpecCheck.check(r, null).problems());
    }

    @Test
    void theContractsBoundsHoldHereAsInTheServer() {
        RagSearch r = valid();
        r.getSpec().models.reranker.maxSeqLen = io.ragsearch.contract.settings.Bounds.MAX_SEQ_LEN_MIN;
        r.getSpec().projects.get(0).retrieval = "vector";
        r.getSpec().projects.get(0).language = "en";
        assertTrue(SpecCheck.check(r, null).valid(), SpecCheck.check(r, null).problems().toString());

        r.getSpec().models.reranker.maxSeqLen = io.ragsearch.contract.settings.Bounds.MAX_SEQ_LEN_MIN - 1;
        r.getSpec().projects.get(0).language = "korean";
        r.getSpec().projects.get(0).retrieval = "semantic";
        List<String> problems = SpecCheck.check(r, null).problems();
        assertEquals(List.of("spec.projects[0].language must be one of [auto, ko, en] (got 'korean')",
                "spec.projects[0].retrieval must be one of [auto, lexical, vector, hybrid] (got 'semantic')",
                "spec.models.reranker.maxSeqLen must be 8..8192 tokens (got 7)"), problems);
    }

    public static RagSearch valid() {
        RagSearch r = new RagSearch();
        r.getMetadata().setName("rules");
        r.getMetadata().setNamespace("ns");
        RagSearchSpec s = new RagSearchSpec();
        s.image = "ragsearch/server:1";
        s.resources = new Resources();
        s.resources.memory = "1500Mi";
        s.resources.cpu = "1500m";
        s.models = new Models();
        s.models.reranker = new ModelSource();
        s.models.reranker.builtin = "minilm-pair";
        s.projects = new ArrayList<>(List.of(project("handbook", "docs")));
        r.setSpec(s);
        return r;
    }

    static Project project(String name, String configMap) {
        Project p = new Project();
        p.name = name;
        p.source = new ProjectSource();
        p.source.configMap = configMap;
        return p;
    }
}
