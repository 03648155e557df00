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

    /** A file and what render must say about it; {@code calibration}: a --calibration file's text, if any. */
    private record Case(String name, byte[] file, String says, String calibration) {
        Case(String name, byte[] file, String says) {
            this(name, file, says, null);
        }
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
                + "  rerank: {intraOpThreads: 100000}\n"), "spec.rerank.intraOpThreads must be 1..256, got 100000"));
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
        String jwt = "  auth:\n    mode: jwt\n    issuer: https://kubernetes.default.svc.cluster.local\n"
                + "    audiences: [ragsearch]\n    access: [{projects: [handbook], serviceAccounts: [\"agents:hr\"]}]\n";
        cases.add(bad("auth: HS256 (a public key as an HMAC secret)", base(RESOURCES + PROJECT + jwt + "    algorithms: [HS256]\n"),
                "spec.auth.algorithms: 'HS256' is not allowed"));
        cases.add(bad("auth: alg none", base(RESOURCES + PROJECT + jwt + "    algorithms: [none]\n"), "spec.auth.algorithms: 'none' is not allowed"));
        cases.add(bad("auth: mode oauth", base(RESOURCES + PROJECT + jwt.replace("mode: jwt", "mode: oauth")),
                "spec.auth.mode must be static or jwt"));
        cases.add(bad("auth: jwt without audiences", base(RESOURCES + PROJECT + jwt.replace("    audiences: [ragsearch]\n", "")),
                "spec.auth.audiences needs at least one"));
        cases.add(bad("auth: jwt without access", base(RESOURCES + PROJECT + jwt.replace(
                "    access: [{projects: [handbook], serviceAccounts: [\"agents:hr\"]}]\n", "")), "spec.auth.access is empty"));
        cases.add(bad("auth: a rule naming nobody", base(RESOURCES + PROJECT + jwt.replace(", serviceAccounts: [\"agents:hr\"]", "")),
                "spec.auth.access[0] names nobody"));
        cases.add(bad("auth: ServiceAccount without namespace", base(RESOURCES + PROJECT + jwt.replace("agents:hr", "hr")),
                "spec.auth.access[0].serviceAccounts: 'hr' is not namespace:name"));
        cases.add(bad("auth: plain http issuer", base(RESOURCES + PROJECT + jwt.replace("https://kubernetes", "http://kubernetes")),
                "spec.auth.issuer must be https"));
        cases.add(bad("auth: clock skew an hour", base(RESOURCES + PROJECT + jwt + "    clockSkewSeconds: 3600\n"),
                "spec.auth.clockSkewSeconds must be 0..300"));
        cases.add(bad("auth: static without its Secret", base(RESOURCES + PROJECT + "  auth: {mode: static}\n"),
                "spec.auth.bearerTokenSecretRef is required"));
        cases.add(bad("auth: jwt with a static Secret too", base(RESOURCES + PROJECT + jwt + "    bearerTokenSecretRef: {name: t}\n"),
                "spec.auth.bearerTokenSecretRef belongs to mode static"));
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
        cases.addAll(families());
        return cases;
    }

    /** The example's calibration, as a pod reports it. */
    private static final String GOOD_CALIBRATION = "{\"method\": \"rss\", \"memoryLimitBytes\": null, \"residentBytes\": 381681664, "
            + "\"perRunBytes\": 475004928, \"samples\": 4, \"batch\": 32, \"maxSeqLen\": 256, \"intraOpThreads\": 1, "
            + "\"rerankerDigest\": \"sha256:stand-in-minilm-pair\", \"measuredAt\": \"2026-12-02T18:20:00Z\"}";

    /**
     * Generated rows: every whole-number field × wrong kinds and out-of-range values, every
     * Kubernetes name the spec carries × names the API server refuses, label keys and values ×
     * bad syntax, images × bad references, and --calibration files that are broken or implausible
     * (issue 21: an implausible one was dropped without a word). Each must be refused naming the field.
     */
    static List<Case> families() {
        List<Case> cases = new ArrayList<>();
        java.util.Map<String, java.util.function.Function<String, String>> numbers = new java.util.LinkedHashMap<>();
        numbers.put("spec.replicas", v -> RESOURCES + PROJECT + "  replicas: " + v + "\n");
        numbers.put("spec.startupTimeoutSeconds", v -> RESOURCES + PROJECT + "  startupTimeoutSeconds: " + v + "\n");
        numbers.put("spec.pod.preStopDelaySeconds", v -> RESOURCES + PROJECT + "  pod: {preStopDelaySeconds: " + v + "}\n");
        numbers.put("spec.pod.shutdownSeconds", v -> RESOURCES + PROJECT + "  pod: {shutdownSeconds: " + v + "}\n");
        numbers.put("spec.rerank.intraOpThreads", v -> RESOURCES + PROJECT + "  rerank: {intraOpThreads: " + v + "}\n");
        numbers.put("spec.rerank.headroomPercent", v -> RESOURCES + PROJECT + "  rerank: {headroomPercent: " + v + "}\n");
        for (var field : numbers.entrySet()) {
            for (String v : List.of("-1", "2.5", "two", "\"\"", "[]", "{}", "true", "99999999999", "-99999999999", "1e400", "\"5 \"",
                    "\"5\"", "0.5")) {
                cases.add(bad(field.getKey() + " = " + v, base(field.getValue().apply(v)), field.getKey()));
            }
            for (String v : List.of(".nan", ".inf", "-.inf")) {
                cases.add(bad(field.getKey() + " = " + v, base(field.getValue().apply(v)), "not valid YAML: Malformed numeric value '" + v + "'"));
            }
        }
        cases.add(bad("spec.startupTimeoutSeconds = 29", base(numbers.get("spec.startupTimeoutSeconds").apply("29")),
                "spec.startupTimeoutSeconds must be in [30, 86400], got 29"));
        cases.add(bad("spec.startupTimeoutSeconds = 86401", base(numbers.get("spec.startupTimeoutSeconds").apply("86401")),
                "spec.startupTimeoutSeconds must be in [30, 86400], got 86401"));
        cases.add(bad("spec.pod.preStopDelaySeconds = 301", base(numbers.get("spec.pod.preStopDelaySeconds").apply("301")),
                "spec.pod.preStopDelaySeconds must be in [0, 300], got 301"));
        cases.add(bad("spec.pod.shutdownSeconds = 0", base(numbers.get("spec.pod.shutdownSeconds").apply("0")),
                "spec.pod.shutdownSeconds must be in [1, 600], got 0"));
        cases.add(bad("spec.pod.shutdownSeconds = 601", base(numbers.get("spec.pod.shutdownSeconds").apply("601")),
                "spec.pod.shutdownSeconds must be in [1, 600], got 601"));
        cases.add(bad("spec.rerank.intraOpThreads = 0", base(numbers.get("spec.rerank.intraOpThreads").apply("0")),
                "spec.rerank.intraOpThreads must be 1..256, got 0"));
        cases.add(bad("spec.rerank.intraOpThreads = 257", base(numbers.get("spec.rerank.intraOpThreads").apply("257")),
                "spec.rerank.intraOpThreads must be 1..256, got 257"));

        java.util.Map<String, java.util.function.Function<String, String>> names = new java.util.LinkedHashMap<>();
        names.put("metadata.name", v -> named(v, null, RESOURCES + PROJECT));
        names.put("metadata.namespace", v -> named("handbook", v, RESOURCES + PROJECT));
        names.put("spec.auth.bearerTokenSecretRef.name", v -> base(RESOURCES + PROJECT + "  auth: {bearerTokenSecretRef: {name: " + v + "}}\n"));
        names.put("spec.projects[0].source.configMap", v -> base(RESOURCES + "  projects:\n    - {name: h, source: {configMap: " + v + "}}\n"));
        names.put("spec.pod.priorityClassName", v -> base(RESOURCES + PROJECT + "  pod: {priorityClassName: " + v + "}\n"));
        names.put("spec.pod.imagePullSecrets[0].name", v -> base(RESOURCES + PROJECT + "  pod: {imagePullSecrets: [{name: " + v + "}]}\n"));
        names.put("spec.models.reranker.pvc.claimName", v -> base(RESOURCES + PROJECT + "  models:\n    reranker: {pvc: {claimName: " + v
                + ", path: m}}\n"));
        for (var field : names.entrySet()) {
            for (String v : List.of("UPPER", "under_score", "-lead", "trail-", "\"" + "a".repeat(254) + "\"", "\"sp ace\"", "\"new\\nline\"",
                    "\"caf\u00e9\"", "\"a/b\"", "\"a:b\"", "\"..\"", "\"a\\u0000b\"", "\"\u202Eevil\"", "\"*\"")) {
                cases.add(bad(field.getKey() + " = " + cut(v, 30), field.getValue().apply(v), field.getKey()));
            }
        }
        for (String key : List.of("\"-lead\"", "\"trail-\"", "\"" + "k".repeat(64) + "\"", "\"p.example/\"", "\"/name\"", "\"a b\"",
                "\"\u00e9\"", "\"a\\nb\"", "\"" + "p".repeat(254) + "/x\"", "\"\"")) {
            cases.add(bad("spec.pod.labels key " + cut(key, 30), base(RESOURCES + PROJECT + "  pod:\n    labels: {" + key + ": x}\n"),
                    "spec.pod.labels key"));
            cases.add(bad("spec.pod.annotations key " + cut(key, 30), base(RESOURCES + PROJECT + "  pod:\n    annotations: {" + key + ": x}\n"),
                    "spec.pod.annotations key"));
        }
        for (String value : List.of("\"-lead\"", "\"trail.\"", "\"a b\"", "\"\u00e9\"", "\"a/b\"", "\"a:b\"", "\"" + "v".repeat(64) + "\"")) {
            cases.add(bad("spec.pod.labels value " + cut(value, 30), base(RESOURCES + PROJECT + "  pod:\n    labels: {team: " + value + "}\n"),
                    "spec.pod.labels['team']"));
            cases.add(bad("spec.pod.nodeSelector value " + cut(value, 30), base(RESOURCES + PROJECT + "  pod:\n    nodeSelector: {zone: " + value
                    + "}\n"), "spec.pod.nodeSelector['zone']"));
        }
        for (String image : List.of("\"\"", "\" \"", "\"ragsearch/search-server:\"", "\"ragsearch/search-server:a b\"", "\":tag\"",
                "\"ragsearch//search-server\"", "\"ragsearch/search-server@sha256:xyz\"", "\"ragsearch/search-server:" + "t".repeat(200) + "\"",
                "\"http://registry/ragsearch\"", "\"ragsearch/search-server:0.1.0\\u0000\"", "\"-ragsearch/search-server\"")) {
            cases.add(bad("spec.image " + cut(image, 30), base(RESOURCES + PROJECT).replace("ragsearch/search-server:0.1.0", image), "spec.image"));
        }
        java.util.Map<String, String> calibrations = new java.util.LinkedHashMap<>();
        calibrations.put("perRunBytes 1 (issue 21: dropped silently)", GOOD_CALIBRATION.replace("475004928", "1"));
        calibrations.put("perRunBytes just under 1 MiB", GOOD_CALIBRATION.replace("475004928", "1048575"));
        calibrations.put("residentBytes 1", GOOD_CALIBRATION.replace("381681664", "1"));
        calibrations.put("residentBytes over twice its limit", GOOD_CALIBRATION.replace("\"memoryLimitBytes\": null", "\"memoryLimitBytes\": 100000000"));
        calibrations.put("intraOpThreads 5000", GOOD_CALIBRATION.replace("\"intraOpThreads\": 1", "\"intraOpThreads\": 5000"));
        for (var c : calibrations.entrySet()) {
            cases.add(new Case("--calibration " + c.getKey(), base(RESOURCES + PROJECT).getBytes(StandardCharsets.UTF_8),
                    "an implausible measurement, refused as the operator refuses it: ", c.getValue()));
        }
        java.util.Map<String, String> broken = new java.util.LinkedHashMap<>();
        broken.put("empty", "");
        broken.put("an array", "[]");
        broken.put("not JSON", "{{{");
        broken.put("a number", "7");
        broken.put("perRunBytes as text", GOOD_CALIBRATION.replace("475004928", "\"lots\""));
        broken.put("perRunBytes 2.5", GOOD_CALIBRATION.replace("475004928", "2.5"));
        broken.put("perRunBytes past a long", GOOD_CALIBRATION.replace("475004928", "99999999999999999999"));
        broken.put("residentBytes missing", GOOD_CALIBRATION.replace("\"residentBytes\": 381681664, ", ""));
        broken.put("a NUL in the text", GOOD_CALIBRATION.replace("rss", "r\u0000s"));
        for (var c : broken.entrySet()) {
            cases.add(new Case("--calibration " + c.getKey(), base(RESOURCES + PROJECT).getBytes(StandardCharsets.UTF_8),
                    "calibration", c.getValue()));
        }
        cases.add(new Case("--calibration without a reranker (perRunBytes 0)", base(RESOURCES + PROJECT).getBytes(StandardCharsets.UTF_8),
                "this measurement has no reranker (perRunBytes 0)", GOOD_CALIBRATION.replace("475004928", "0")));
        return cases;
    }

    private static String cut(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n) + "…";
    }

    /** A RagSearch file with the given metadata (YAML scalars as written). */
    static String named(String name, String namespace, String spec) {
        return "apiVersion: ragsearch.io/v1alpha1\nkind: RagSearch\nmetadata:\n  name: " + name + "\n"
                + (namespace == null ? "" : "  namespace: " + namespace + "\n")
                + "spec:\n  image: ragsearch/search-server:0.1.0\n" + spec;
    }

    @TestFactory
    Stream<DynamicTest> badRagSearchFilesAreRefusedWithAClearMessage() {
        List<Case> all = cases();
        System.out.println("render bad-input catalogue: " + all.size() + " RagSearch and calibration files");
        return all.stream().map(c -> dynamicTest(c.name(), () -> {
            Path file = Files.write(dir.resolve("case.yaml"), c.file());
            RenderCommandTest.Run run = c.calibration() == null ? RenderCommandTest.render("-f", file.toString())
                    : RenderCommandTest.render("-f", file.toString(), "--calibration",
                            Files.writeString(dir.resolve("calibration.json"), c.calibration()).toString());
            String where = c.name() + ": exit " + run.exit() + ": " + cut(run.err());
            assertEquals(2, run.exit(), where);
            assertTrue(run.err().contains(c.says()), where);
            assertFalse(LEAK.matcher(run.err()).find(), "leak: " + where);
            assertTrue(run.err().length() < 4_000, "a message, not a dump: " + where);
        }));
    }

    /** The example calibration still renders: the refusals above are the file's, not the option's. */
    @TestFactory
    Stream<DynamicTest> aPlausibleCalibrationStillRenders() {
        return Stream.of(dynamicTest("the example calibration", () -> {
            Path file = Files.writeString(dir.resolve("ok.yaml"), base(RESOURCES + PROJECT));
            Path calibration = Files.writeString(dir.resolve("calibration.json"), GOOD_CALIBRATION);
            RenderCommandTest.Run run = RenderCommandTest.render("-f", file.toString(), "--calibration", calibration.toString());
            assertEquals(0, run.exit(), run.err());
            assertTrue(run.out().contains("Deployment") && run.out().contains("concurrency"), run.out());
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
