package io.ragsearch.operator.cli;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The render half of the bad-input catalogue: RagSearch files the API server would reject, or
 * that would silently mean something else, each answered by render with exit code 2 and a
 * message naming the problem — no stack trace, no Java class name — or, where the file is
 * legitimate, manifests the API server accepts.
 */
class RenderBadInputCatalogueTest {

    private static final Pattern LEAK = Pattern.compile("\\tat |Exception|\\bjava\\.|com\\.fasterxml|org\\.yaml|io\\.ragsearch|io\\.fabric8");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    @TempDir
    Path dir;

    /** A file and what render must say about it (null: it renders). */
    private record Case(String name, byte[] file, String says) {
    }

    static String base(String spec) {
        return """
                apiVersion: ragsearch.io/v1alpha1
                kind: RagSearch
                metadata:
                  name: handbook
                spec:
                  image: ragsearch/search-server:0.1.0
                """ + spec;
    }

    static final String RESOURCES = "  resources: {memory: 1500Mi, cpu: \"2\"}\n";
    static final String PROJECT = "  projects:\n    - name: handbook\n      source: {configMap: docs}\n";

    private static Case bad(String name, String text, String says) {
        return new Case(name, text.getBytes(StandardCharsets.UTF_8), says);
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String laughs = "  a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
                + "  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                + "  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                + "  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n";
        cases.add(bad("YAML alias bomb", "x:\n" + laughs + base(RESOURCES + PROJECT), "YAML aliases (*a, line 3) are not supported"));
        cases.add(bad("an alias that would silently become text", base(RESOURCES
                + "  projects:\n    - name: &n handbook\n      description: *n\n      source: {configMap: d}\n"), "YAML aliases (*n"));
        cases.add(bad("unknown field", base(RESOURCES + PROJECT + "  replica: 2\n"), "unknown field 'replica'"));
        cases.add(bad("unknown nested field", base("  resources: {memory: 1500Mi, cpus: 2}\n" + PROJECT), "unknown field 'cpus'"));
        cases.add(bad("negative memory", base("  resources: {memory: -1Gi}\n" + PROJECT), "spec.resources.memory"));
        cases.add(bad("negative replicas", base(RESOURCES + PROJECT + "  replicas: -3\n"), "spec.replicas must be 0 or more"));
        cases.add(bad("replicas 2.5", base(RESOURCES + PROJECT + "  replicas: 2.5\n"), "spec.replicas: expected a whole number"));
        cases.add(bad("replicas as text", base(RESOURCES + PROJECT + "  replicas: two\n"), "expected a whole number, got 'two'"));
        cases.add(bad("replicas past int", base(RESOURCES + PROJECT + "  replicas: 99999999999\n"), "replicas"));
        cases.add(bad("startupTimeoutSeconds overflow", base(RESOURCES + PROJECT + "  startupTimeoutSeconds: 2147483647\n"),
                "spec.startupTimeoutSeconds must be in [30, 86400]"));
        cases.add(bad("headroom absurd", base(RESOURCES + PROJECT + "  rerank: {headroomPercent: 1000}\n"), "headroomPercent"));
        cases.add(bad("intraOpThreads 100000 (issue 21: 3.9 GB, never started)", base(RESOURCES + PROJECT
                + "  rerank: {intraOpThreads: 100000}\n"), "spec.rerank.intraOpThreads must be in [1, 256], got 100000"));
        cases.add(bad("preStopDelaySeconds negative", base(RESOURCES + PROJECT + "  pod: {preStopDelaySeconds: -5}\n"),
                "spec.pod.preStopDelaySeconds must be in [0, 300], got -5"));
        cases.add(bad("preStopDelaySeconds a day", base(RESOURCES + PROJECT + "  pod: {preStopDelaySeconds: 86400}\n"),
                "spec.pod.preStopDelaySeconds must be in [0, 300], got 86400"));
        cases.add(bad("concurrency zero", base(RESOURCES + PROJECT + "  rerank: {concurrency: 0}\n"), "spec.rerank.concurrency"));
        StringBuilder many = new StringBuilder("  projects:\n");
        for (int i = 0; i < 10_000; i++) {
            many.append("    - {name: p").append(i).append(", source: {configMap: c").append(i).append("}}\n");
        }
        cases.add(bad("10,000 projects", base(RESOURCES + many), "at most " + io.ragsearch.operator.model.SchemaBounds.PROJECTS));
        cases.add(new Case("non-UTF-8 file", concat(base(RESOURCES + PROJECT).getBytes(StandardCharsets.UTF_8),
                "  # caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1)), "not UTF-8 text"));
        cases.add(bad("two documents", base(RESOURCES + PROJECT) + "---\n" + base(RESOURCES + PROJECT), "holds 2 YAML documents"));
        cases.add(bad("duplicate key", base(RESOURCES + PROJECT + "  replicas: 1\n  replicas: 5\n"), "Duplicate field 'replicas'"));
        cases.add(bad("pvc.path traversal", base(RESOURCES + PROJECT
                + "  models:\n    reranker: {pvc: {claimName: models, path: ../../../etc}}\n"), "pvc.path must be a relative path"));
        cases.add(bad("pvc.path absolute", base(RESOURCES + PROJECT
                + "  models:\n    reranker: {pvc: {claimName: models, path: /etc}}\n"), "pvc.path must be a relative path"));
        cases.add(bad("project name with a capital", base(RESOURCES + "  projects:\n    - {name: Handbook, source: {configMap: d}}\n"),
                "must be 1 to 63 lower-case letters"));
        cases.add(bad("a list where an object belongs", base("  resources: [1500Mi]\n" + PROJECT), "spec.resources: expected an object"));
        cases.add(bad("not YAML at all", "{{{{", "not valid YAML"));
        cases.add(bad("empty file", "", "found nothing"));
        cases.add(bad("deep nesting", base(RESOURCES + PROJECT + "  x: " + "[".repeat(5000) + "]".repeat(5000) + "\n"), ""));
        cases.add(bad("a huge file", base(RESOURCES + PROJECT) + "# " + "x".repeat(2 << 20) + "\n", "larger than 1024 KiB"));
        // Issue 21, high 2: names and keys the API server would refuse, and a line break that used to add documents.
        String crb = "\\n---\\napiVersion: rbac.authorization.k8s.io/v1\\nkind: ClusterRoleBinding\\nmetadata: {name: pwned}\\n"
                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\\n"
                + "subjects: [{kind: ServiceAccount, name: default, namespace: default}]";
        cases.add(bad("a document injected through metadata.name", named("\"handbook" + crb + "\"", null, RESOURCES + PROJECT),
                "metadata.name 'handbook\\n---\\napiVersion"));
        cases.add(bad("a document injected through metadata.namespace", named("handbook", "\"search" + crb + "\"", RESOURCES + PROJECT),
                "metadata.namespace 'search\\n---"));
        cases.add(bad("a name with a capital", named("Handbook", null, RESOURCES + PROJECT), "metadata.name 'Handbook' is not a DNS-1035 label"));
        cases.add(bad("a name starting with a digit (it names the Service)", named("1handbook", null, RESOURCES + PROJECT),
                "metadata.name '1handbook' is not a DNS-1035 label"));
        cases.add(bad("a name of 64 characters", named("h" + "a".repeat(63), null, RESOURCES + PROJECT), "is not a DNS-1035 label"));
        cases.add(bad("a name with a dot", named("hand.book", null, RESOURCES + PROJECT), "metadata.name 'hand.book'"));
        cases.add(bad("a namespace with an underscore", named("handbook", "my_ns", RESOURCES + PROJECT),
                "metadata.namespace 'my_ns' is not a DNS-1123 label"));
        cases.add(bad("an image with a space", base(RESOURCES + PROJECT).replace("ragsearch/search-server:0.1.0", "\"ragsearch/search server\""),
                "spec.image 'ragsearch/search server' is not an image reference"));
        cases.add(bad("an image with a line break", base(RESOURCES + PROJECT).replace("ragsearch/search-server:0.1.0",
                "\"ragsearch/search-server:0.1.0\\n---\""), "spec.image 'ragsearch/search-server:0.1.0\\n---'"));
        cases.add(bad("an image in capitals", base(RESOURCES + PROJECT).replace("ragsearch/search-server", "Ragsearch/Search-Server"),
                "spec.image"));
        cases.add(bad("an image with a short digest", base(RESOURCES + PROJECT).replace(":0.1.0", "@sha256:abc"), "spec.image"));
        cases.add(bad("a label key with a space", base(RESOURCES + PROJECT + "  pod:\n    labels: {\"team name\": search}\n"),
                "spec.pod.labels key 'team name'"));
        cases.add(bad("a label key with two slashes", base(RESOURCES + PROJECT + "  pod:\n    labels: {\"a/b/c\": x}\n"),
                "spec.pod.labels key 'a/b/c'"));
        cases.add(bad("a label key prefix in capitals", base(RESOURCES + PROJECT + "  pod:\n    labels: {\"Example.COM/team\": x}\n"),
                "prefix (before '/') is a DNS-1123 subdomain"));
        cases.add(bad("a label value of 64 characters", base(RESOURCES + PROJECT + "  pod:\n    labels: {team: " + "a".repeat(64) + "}\n"),
                "spec.pod.labels['team'] '" + "a".repeat(64)));
        cases.add(bad("a label value with a line break", base(RESOURCES + PROJECT + "  pod:\n    labels: {team: \"a" + crb + "\"}\n"),
                "spec.pod.labels['team'] 'a\\n---"));
        cases.add(bad("a label value ending in a dash", base(RESOURCES + PROJECT + "  pod:\n    labels: {team: search-}\n"),
                "is not a label value"));
        cases.add(bad("an annotation key with a colon", base(RESOURCES + PROJECT + "  pod:\n    annotations: {\"a:b\": x}\n"),
                "spec.pod.annotations key 'a:b'"));
        cases.add(bad("a node selector value with a space", base(RESOURCES + PROJECT + "  pod:\n    nodeSelector: {zone: \"a b\"}\n"),
                "spec.pod.nodeSelector['zone'] 'a b'"));
        cases.add(bad("a priority class in capitals", base(RESOURCES + PROJECT + "  pod:\n    priorityClassName: High\n"),
                "spec.pod.priorityClassName 'High' is not a DNS-1123 subdomain"));
        cases.add(bad("a pull secret with an underscore", base(RESOURCES + PROJECT + "  pod:\n    imagePullSecrets: [{name: reg_cred}]\n"),
                "spec.pod.imagePullSecrets[0].name 'reg_cred'"));
        cases.add(bad("a database Secret with a slash", base(RESOURCES + "  projects:\n    - {name: h, source: {database: true}}\n"
                + "  database: {secretRef: {name: \"db/creds\"}}\n"), "spec.database.secretRef.name 'db/creds'"));
        cases.add(bad("a token Secret in capitals", base(RESOURCES + PROJECT + "  auth: {bearerTokenSecretRef: {name: Token}}\n"),
                "spec.auth.bearerTokenSecretRef.name 'Token'"));
        cases.add(bad("a corpus ConfigMap with a line break", base(RESOURCES + "  projects:\n    - {name: h, source: {configMap: \"docs"
                + crb + "\"}}\n"), "spec.projects[0].source.configMap 'docs\\n---"));
        cases.add(bad("a claim of 254 characters", base(RESOURCES + PROJECT + "  models:\n    reranker: {pvc: {claimName: "
                + "c".repeat(254) + ", path: m}}\n"), "spec.models.reranker.pvc.claimName"));
        cases.add(bad("a network policy label key with a space", base(RESOURCES + PROJECT
                + "  networkPolicy: {clientPodLabels: {\"my app\": x}}\n"), "spec.networkPolicy.clientPodLabels key 'my app'"));
        cases.add(bad("a checks key that climbs", base(RESOURCES + PROJECT + "  verification: {configMap: checks, key: \"../x\"}\n"),
                "spec.verification.key '../x' is not a ConfigMap key"));
        return cases;
    }

    /** A RagSearch file with the given metadata (YAML scalars as written). */
    static String named(String name, String namespace, String spec) {
        return "apiVersion: ragsearch.io/v1alpha1\nkind: RagSearch\nmetadata:\n  name: " + name + "\n"
                + (namespace == null ? "" : "  namespace: " + namespace + "\n")
                + "spec:\n  image: ragsearch/search-server:0.1.0\n" + spec;
    }

    @TestFactory
    Stream<DynamicTest> badRagSearchFilesAreRefusedWithAClearMessage() {
        return cases().stream().map(c -> dynamicTest(c.name(), () -> {
            Path file = Files.write(dir.resolve(c.name().replaceAll("[^a-z0-9]+", "-") + ".yaml"), c.file());
            RenderCommandTest.Run run = RenderCommandTest.render("-f", file.toString());
            String where = c.name() + ": exit " + run.exit() + ": " + cut(run.err());
            assertEquals(2, run.exit(), where);
            assertTrue(run.err().contains(c.says()), where);
            assertFalse(LEAK.matcher(run.err()).find(), "leak: " + where);
            assertTrue(run.err().length() < 4_000, "a message, not a dump: " + where);
        }));
    }

    @TestFactory
    Stream<DynamicTest> projectNamesThatLookAlikeGetDistinctValidVolumes() {
        List<String> names = List.of("hand-book", "hand.book", "hand_book", "a" + "-".repeat(61) + "z", "abc.", "abc-",
                "x".repeat(63), "x".repeat(62) + "_");
        return Stream.of(dynamicTest("volumes of " + names, () -> {
            StringBuilder spec = new StringBuilder("  projects:\n");
            names.forEach(n -> spec.append("    - {name: \"").append(n).append("\", source: {configMap: docs}}\n"));
            Path file = Files.writeString(dir.resolve("alike.yaml"), base(RESOURCES + spec));
            RenderCommandTest.Run run = RenderCommandTest.render("-f", file.toString());
            assertEquals(0, run.exit(), run.err());
            Deployment d = (Deployment) RenderCommandTest.objects(run.out()).stream()
                    .filter(o -> o.getKind().equals("Deployment")).findFirst().orElseThrow();
            Set<String> volumes = new HashSet<>();
            for (Volume v : d.getSpec().getTemplate().getSpec().getVolumes()) {
                assertTrue(DNS_LABEL.matcher(v.getName()).matches(), "not a DNS label: " + v.getName());
                assertTrue(volumes.add(v.getName()), "collision: " + v.getName());
            }
            assertTrue(volumes.size() >= names.size());
        }));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String cut(String s) {
        return s.length() <= 400 ? s : s.substring(0, 400) + "…";
    }
}
