package io.ragsearch.operator.spec;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.ragsearch.operator.budget.HeapSize;
import io.ragsearch.operator.budget.Mebibytes;
import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.operator.naming.Names;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.Database;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.PodSettings;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.Resources;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything the schema cannot say (or a cluster without validation let through): every problem
 * is listed at once, so a person fixes the spec in one edit.
 */
public final class SpecCheck {

    public static final Set<String> BUILTIN_EMBEDDINGS = Set.of("all-minilm-l6-v2");
    public static final Set<String> BUILTIN_RERANKERS = Set.of("minilm-pair");

    /** The CRD's own pattern: what the API server admits, render admits. */
    private static final Pattern QUANTITY = Pattern.compile(Resources.QUANTITY);
    private static final Pattern PROJECT_NAME = Pattern.compile(Project.NAME_PATTERN);
    private static final Pattern SHA256 = Pattern.compile("[a-f0-9]{64}");
    /** The smallest limit a JVM, a Lucene index and one model fit in; below it nothing can start. */
    private static final long MIN_MEMORY_BYTES = 256L << 20;
    /** A day: no model load takes longer, and the probe's failureThreshold arithmetic stays far from overflow. */
    static final int MAX_STARTUP_TIMEOUT_SECONDS = 86_400;
    /**
     * Each project is a mounted ConfigMap volume; the Deployment must stay far below the API
     * server's object size limit. The CRD's maxItems says the same (Bounds.PROJECTS).
     */
    static final int MAX_PROJECTS = io.ragsearch.operator.model.Bounds.PROJECTS;
    /** 64 TiB, above the largest machines sold: every sum the budget makes stays far inside a long. */
    private static final long MAX_MEMORY_BYTES = 64L << 40;
    /** 4096 cores in millicores: more than any node has; the CPU cap stays an int. */
    private static final long MAX_CPU_MILLIS = 4096_000L;
    /** The natives unpacked there and the built-in model's file take about 200 MiB. */
    private static final long MIN_TMP_BYTES = 256L << 20;
    private static final long MIN_MODELS_BYTES = 16L << 20;
    private static final long MAX_STORAGE_BYTES = 1L << 40;
    /** What a heap override must leave of the limit: the JVM's own native part and one model. */
    private static final long MIN_NATIVE_BYTES = 256L << 20;
    public static final String DEFAULT_TMP_SIZE = "1Gi";
    public static final String DEFAULT_MODELS_SIZE = "4Gi";

    /** The outcome: a checked spec, or the list of problems. */
    public record Result(Optional<CheckedSpec> spec, List<String> problems) {
        public boolean valid() {
            return problems.isEmpty();
        }
    }

    private SpecCheck() {
    }

    /** @param lookup where referenced objects are looked up; null (render) skips those checks */
    public static Result check(RagSearch resource, ReferenceLookup lookup) {
        List<String> problems = new ArrayList<>();
        RagSearchSpec spec = resource.getSpec();
        if (spec == null) {
            return new Result(Optional.empty(), List.of("spec is missing"));
        }
        String namespace = resource.getMetadata().getNamespace();
        if (spec.image == null || spec.image.isBlank()) {
            problems.add("spec.image is required");
        }
        int replicas = spec.replicas == null ? 1 : spec.replicas;
        if (replicas < 0) {
            problems.add("spec.replicas must be 0 or more, got " + replicas);
        }
        Long memory = null;
        Long cpu = null;
        if (spec.resources == null || spec.resources.memory == null) {
            problems.add("spec.resources.memory is required (the memory limit the rerank concurrency is computed from)");
        } else {
            memory = bytesInRange("spec.resources.memory", spec.resources.memory, MIN_MEMORY_BYTES, "256Mi",
                    MAX_MEMORY_BYTES, "64Ti", "too small for the server to start", problems);
        }
        if (spec.resources != null && spec.resources.cpu != null) {
            cpu = quantity("spec.resources.cpu", spec.resources.cpu, problems)
                    .map(q -> q.movePointRight(3).setScale(0, RoundingMode.FLOOR)).map(millis -> {
                        if (millis.compareTo(BigDecimal.ONE) < 0 || millis.compareTo(BigDecimal.valueOf(MAX_CPU_MILLIS)) > 0) {
                            problems.add("spec.resources.cpu " + spec.resources.cpu + " is out of range: between 1m and 4096 (cores)");
                            return null;
                        }
                        return millis.longValueExact();
                    }).orElse(null);
        }
        Long heap = memory == null ? null : HeapSize.forLimit(memory);
        if (memory != null && spec.resources.heap != null) {
            // The rest of the limit is what native memory (models, rerank runs, the JVM itself) gets.
            heap = bytesInRange("spec.resources.heap", spec.resources.heap.strip(), 64L << 20, "64Mi",
                    memory - MIN_NATIVE_BYTES, Mebibytes.ceil(memory - MIN_NATIVE_BYTES) + "Mi (the memory limit less 256Mi)",
                    "too small for the server's index", problems);
        }
        String tmpSize = DEFAULT_TMP_SIZE;
        String modelsSize = DEFAULT_MODELS_SIZE;
        if (spec.resources != null && spec.resources.tmpSize != null) {
            tmpSize = spec.resources.tmpSize.strip();
            bytesInRange("spec.resources.tmpSize", tmpSize, MIN_TMP_BYTES, "256Mi", MAX_STORAGE_BYTES, "1Ti",
                    "too small for the native libraries and the built-in model's file", problems);
        }
        if (spec.resources != null && spec.resources.modelsSize != null) {
            modelsSize = spec.resources.modelsSize.strip();
            bytesInRange("spec.resources.modelsSize", modelsSize, MIN_MODELS_BYTES, "16Mi", MAX_STORAGE_BYTES, "1Ti",
                    "too small for a model", problems);
        }
        checkPod(spec, replicas, problems);
        checkProjects(spec, namespace, lookup, problems);
        if (spec.models != null) {
            checkModel("spec.models.embedding", spec.models.embedding, BUILTIN_EMBEDDINGS, namespace, lookup, problems);
            checkModel("spec.models.reranker", spec.models.reranker, BUILTIN_RERANKERS, namespace, lookup, problems);
        }
        if (spec.database != null) {
            if (spec.database.secretRef == null || blank(spec.database.secretRef.name)) {
                problems.add("spec.database.secretRef.name is required");
            } else {
                checkSecret("spec.database.secretRef", namespace, spec.database.secretRef.name,
                        List.of(Database.URL_KEY, Database.USER_KEY, Database.PASSWORD_KEY), lookup, problems);
            }
        }
        if (spec.auth != null) {
            if (spec.auth.bearerTokenSecretRef == null || blank(spec.auth.bearerTokenSecretRef.name)) {
                problems.add("spec.auth.bearerTokenSecretRef.name is required");
            } else {
                checkSecret("spec.auth.bearerTokenSecretRef", namespace, spec.auth.bearerTokenSecretRef.name,
                        List.of(Auth.TOKEN_KEY), lookup, problems);
            }
        }
        if (spec.gate != null && spec.gate.threshold != null && !inUnitRange(spec.gate.threshold)) {
            problems.add("spec.gate.threshold must be in [0, 1], got " + spec.gate.threshold);
        }
        RerankBudget.Request request = RerankBudget.Request.auto();
        String requested = "auto";
        int headroom = RerankBudget.DEFAULT_HEADROOM_PERCENT;
        int intraOp = 1;
        if (spec.rerank != null) {
            IntOrString c = spec.rerank.concurrency;
            boolean force = Boolean.TRUE.equals(spec.rerank.force);
            if (c != null) {
                Integer fixed = fixedConcurrency(c, problems);
                if (fixed != null) {
                    request = new RerankBudget.Request(fixed, force);
                    requested = Integer.toString(fixed);
                }
            }
            if (force && request.fixed() == null) {
                problems.add("spec.rerank.force needs a fixed spec.rerank.concurrency (it forces a number, not auto)");
            }
            if (spec.rerank.headroomPercent != null) {
                headroom = spec.rerank.headroomPercent;
                if (headroom < 0 || headroom > 90) {
                    problems.add("spec.rerank.headroomPercent must be in [0, 90], got " + headroom);
                }
            }
            if (spec.rerank.intraOpThreads != null) {
                intraOp = spec.rerank.intraOpThreads;
                if (intraOp < 1) {
                    problems.add("spec.rerank.intraOpThreads must be at least 1, got " + intraOp);
                }
            }
            if (spec.rerank.queueTimeoutMillis != null && spec.rerank.queueTimeoutMillis < 1) {
                problems.add("spec.rerank.queueTimeoutMillis must be at least 1, got " + spec.rerank.queueTimeoutMillis);
            }
        }
        int startup = spec.startupTimeoutSeconds == null ? CheckedSpec.DEFAULT_STARTUP_TIMEOUT_SECONDS : spec.startupTimeoutSeconds;
        if (startup < 30 || startup > MAX_STARTUP_TIMEOUT_SECONDS) {
            problems.add("spec.startupTimeoutSeconds must be in [30, " + MAX_STARTUP_TIMEOUT_SECONDS + "], got " + startup);
        }
        if (spec.podDisruptionBudget != null) {
            int minAvailable = spec.podDisruptionBudget.minAvailable == null ? 1 : spec.podDisruptionBudget.minAvailable;
            if (minAvailable < 0) {
                problems.add("spec.podDisruptionBudget.minAvailable must be 0 or more");
            } else if (replicas > 0 && minAvailable >= replicas) {
                // Such a budget lets no pod be evicted: every node drain and cluster upgrade would hang on it.
                problems.add("spec.podDisruptionBudget.minAvailable " + minAvailable + " with spec.replicas " + replicas
                        + " would block every node drain (no pod may ever be evicted); use at most " + (replicas - 1)
                        + (replicas == 1 ? ", or run 2 replicas" : "") + (spec.podDisruptionBudget.minAvailable == null
                        ? " (minAvailable defaults to 1)" : ""));
            }
        }
        if (!problems.isEmpty()) {
            return new Result(Optional.empty(), List.copyOf(problems));
        }
        ModelSource reranker = spec.models == null ? null : spec.models.reranker;
        return new Result(Optional.of(new CheckedSpec(resource, spec.image, replicas, memory, spec.resources.memory, cpu,
                spec.resources.cpu, request, requested, headroom, intraOp, startup, rerankerSource(reranker),
                reranker != null && reranker.url != null ? "sha256:" + reranker.sha256 : null, tmpSize, modelsSize, heap)), List.of());
    }

    /** A stable description of the configured reranker: a measurement is only reused for the same one. */
    static String rerankerSource(ModelSource m) {
        if (m == null) {
            return null;
        }
        String length = m.maxSeqLen == null ? "" : " maxSeqLen=" + m.maxSeqLen;
        if (m.builtin != null) {
            return "builtin:" + m.builtin + length;
        }
        if (m.pvc != null) {
            return "pvc:" + m.pvc.claimName + "/" + (m.pvc.path == null ? "" : m.pvc.path) + length;
        }
        return "url:" + m.url + " sha256:" + m.sha256 + length;
    }

    private static void checkProjects(RagSearchSpec spec, String namespace, ReferenceLookup lookup, List<String> problems) {
        if (spec.projects == null || spec.projects.isEmpty()) {
            problems.add("spec.projects needs at least one project");
            return;
        }
        if (spec.projects.size() > MAX_PROJECTS) {
            problems.add("spec.projects has " + spec.projects.size() + " projects; at most " + MAX_PROJECTS
                    + " fit one Deployment (each is a mounted volume): split them over several RagSearch resources");
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < spec.projects.size(); i++) {
            Project p = spec.projects.get(i);
            String at = "spec.projects[" + i + "]";
            if (p == null || blank(p.name)) {
                problems.add(at + ".name is required");
                continue;
            }
            if (!PROJECT_NAME.matcher(p.name).matches()) {
                problems.add(at + ".name '" + p.name + "' must be lower-case letters, digits, '.', '_' or '-' (at most 63)");
            }
            if (!seen.add(p.name)) {
                problems.add("duplicate project name '" + p.name + "'");
            }
            boolean fromDatabase = p.source != null && Boolean.TRUE.equals(p.source.database);
            boolean fromConfigMap = p.source != null && !blank(p.source.configMap);
            if (fromDatabase == fromConfigMap) {
                problems.add(at + ".source needs exactly one of database: true or configMap");
            }
            if (fromDatabase && spec.database == null) {
                problems.add(at + " reads from the database, but spec.database is not set");
            }
            if (fromConfigMap && lookup != null && !lookup.configMapExists(namespace, p.source.configMap)) {
                problems.add(at + ".source.configMap '" + p.source.configMap + "' not found in namespace " + namespace);
            }
            if (p.gate != null && p.gate.threshold != null && !inUnitRange(p.gate.threshold)) {
                problems.add(at + ".gate.threshold must be in [0, 1], got " + p.gate.threshold);
            }
        }
    }

    private static void checkModel(String at, ModelSource m, Set<String> builtins, String namespace,
                                   ReferenceLookup lookup, List<String> problems) {
        if (m == null) {
            return;
        }
        int set = (m.builtin != null ? 1 : 0) + (m.pvc != null ? 1 : 0) + (m.url != null ? 1 : 0);
        if (set != 1) {
            problems.add(at + " needs exactly one of builtin, pvc, url (got " + set + ")");
            return;
        }
        if (m.builtin != null && !builtins.contains(m.builtin)) {
            problems.add(at + ".builtin '" + m.builtin + "' is not built in; built in: " + String.join(", ", builtins));
        }
        if (m.pvc != null) {
            if (m.pvc.path != null && !relativeInside(m.pvc.path)) {
                problems.add(at + ".pvc.path must be a relative path inside the claim (no '..', not absolute), got '"
                        + m.pvc.path + "'");
            }
            if (blank(m.pvc.claimName)) {
                problems.add(at + ".pvc.claimName is required");
            } else if (lookup != null && !lookup.claimExists(namespace, m.pvc.claimName)) {
                problems.add(at + ".pvc.claimName '" + m.pvc.claimName + "' not found in namespace " + namespace);
            }
        }
        if (m.url != null) {
            if (!m.url.startsWith("http://") && !m.url.startsWith("https://")) {
                problems.add(at + ".url must be http:// or https://, got " + m.url);
            }
            if (m.sha256 == null || !SHA256.matcher(m.sha256).matches()) {
                problems.add(at + ".sha256 (64 lower-case hex digits) is required with a url");
            }
        }
        if (m.maxSeqLen != null && m.maxSeqLen < 16) {
            problems.add(at + ".maxSeqLen must be at least 16, got " + m.maxSeqLen);
        }
    }

    private static void checkSecret(String at, String namespace, String name, List<String> keys,
                                    ReferenceLookup lookup, List<String> problems) {
        if (lookup == null) {
            return;
        }
        Optional<Set<String>> present = lookup.secretKeys(namespace, name);
        if (present.isEmpty()) {
            problems.add(at + ": secret '" + name + "' not found in namespace " + namespace);
            return;
        }
        List<String> missing = keys.stream().filter(k -> !present.get().contains(k)).toList();
        if (!missing.isEmpty()) {
            problems.add(at + ": secret '" + name + "' lacks key(s) " + String.join(", ", missing));
        }
    }

    private static Integer fixedConcurrency(IntOrString c, List<String> problems) {
        if (c.getIntVal() != null) {
            if (c.getIntVal() < 1) {
                problems.add("spec.rerank.concurrency must be auto or at least 1, got " + c.getIntVal());
                return null;
            }
            return c.getIntVal();
        }
        String s = c.getStrVal() == null ? "" : c.getStrVal().strip();
        if (s.equals("auto")) {
            return null;
        }
        try {
            int n = Integer.parseInt(s);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        problems.add("spec.rerank.concurrency must be auto or a whole number of at least 1, got '" + s + "'");
        return null;
    }

    /** Bytes of a quantity in [min, max]; null (and a problem naming the field and the range) otherwise. */
    private static Long bytesInRange(String at, String text, long min, String minText, long max, String maxText,
                                     String belowWhy, List<String> problems) {
        Optional<BigDecimal> bytes = quantity(at, text, problems).map(q -> q.setScale(0, RoundingMode.CEILING));
        if (bytes.isEmpty()) {
            return null;
        }
        if (bytes.get().compareTo(BigDecimal.valueOf(min)) < 0) {
            problems.add(at + " " + text + " is below " + minText + ", " + belowWhy);
            return null;
        }
        if (bytes.get().compareTo(BigDecimal.valueOf(max)) > 0) {
            problems.add(at + " " + text + " is out of range: between " + minText + " and " + maxText);
            return null;
        }
        return bytes.get().longValueExact();
    }

    /** Pod settings the schema cannot check: the operator's own labels and annotations stay its own. */
    private static void checkPod(RagSearchSpec spec, int replicas, List<String> problems) {
        PodSettings pod = spec.pod;
        if (pod == null) {
            return;
        }
        for (String key : pod.labels == null ? Set.<String>of() : pod.labels.keySet()) {
            if (Names.reservedKey(key)) {
                problems.add("spec.pod.labels: '" + key + "' is the operator's own label (app.kubernetes.io/name, "
                        + "app.kubernetes.io/instance, app.kubernetes.io/managed-by and ragsearch.io/ keys are set by it)");
            }
        }
        for (String key : pod.annotations == null ? Set.<String>of() : pod.annotations.keySet()) {
            if (key.startsWith(Names.KEY_PREFIX)) {
                problems.add("spec.pod.annotations: '" + key + "' is the operator's own (ragsearch.io/ keys are set by it)");
            }
        }
    }

    private static Optional<BigDecimal> quantity(String at, String text, List<String> problems) {
        String s = text.strip();
        if (!QUANTITY.matcher(s).matches()) {
            problems.add(at + " '" + text + "' is not a Kubernetes quantity (e.g. 1500Mi, 2Gi, 500m, 2, 1e9)");
            return Optional.empty();
        }
        BigDecimal amount;
        try {
            amount = Quantity.getAmountInBytes(new Quantity(s.startsWith("+") ? s.substring(1) : s));
        } catch (ArithmeticException | IllegalArgumentException e) {
            problems.add(at + " '" + text + "' is out of range");
            return Optional.empty();
        }
        if (amount.signum() <= 0) {
            problems.add(at + " must be positive, got " + text);
            return Optional.empty();
        }
        return Optional.of(amount);
    }

    /** A volume subPath the API server accepts: relative, and no '..' segment. */
    private static boolean relativeInside(String path) {
        if (path.startsWith("/") || path.contains("\\")) {
            return false;
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    private static boolean inUnitRange(double v) {
        return v >= 0 && v <= 1;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
