package io.ragsearch.operator.spec;

import io.ragsearch.operator.budget.HeapSize;
import io.ragsearch.operator.budget.Mebibytes;
import io.ragsearch.operator.model.Resources;

import java.util.List;

/** spec.resources: the memory limit (required), CPU, heap and the scratch volumes. */
final class LimitsCheck {
    /** The smallest limit a JVM, a Lucene index and one model fit in; below it nothing can start. */
    private static final long MIN_MEMORY_BYTES = 256L << 20;
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
    private static final long MIN_HEAP_BYTES = 64L << 20;

    private static final Quantities.ByteRange MEMORY = new Quantities.ByteRange(MIN_MEMORY_BYTES, "256Mi",
            MAX_MEMORY_BYTES, "64Ti", "too small for the server to start");
    private static final Quantities.ByteRange TMP = new Quantities.ByteRange(MIN_TMP_BYTES, "256Mi",
            MAX_STORAGE_BYTES, "1Ti", "too small for the native libraries and the built-in model's file");
    private static final Quantities.ByteRange MODELS = new Quantities.ByteRange(MIN_MODELS_BYTES, "16Mi",
            MAX_STORAGE_BYTES, "1Ti", "too small for a model");

    private LimitsCheck() {
    }

    /** The limits, or null when a problem was added. */
    static CheckedSpec.Limits check(Resources resources, List<String> problems) {
        String required = "spec.resources.memory is required (the memory limit the rerank concurrency is computed from)";
        if (resources == null) {
            problems.add(required);
            return null;
        }
        int before = problems.size();
        Long memory = null;
        if (resources.memory == null) {
            problems.add(required);
        } else {
            memory = Quantities.bytes("spec.resources.memory", resources.memory, MEMORY, problems);
        }
        Long cpu = resources.cpu == null ? null
                : Quantities.millicores("spec.resources.cpu", resources.cpu, MAX_CPU_MILLIS, problems);
        Long heap = memory == null ? null : heap(resources.heap, memory, problems);
        String tmpSize = storage("spec.resources.tmpSize", resources.tmpSize, SpecDefaults.TMP_SIZE, TMP, problems);
        String modelsSize = storage("spec.resources.modelsSize", resources.modelsSize, SpecDefaults.MODELS_SIZE, MODELS, problems);
        if (problems.size() > before) {
            return null;
        }
        return new CheckedSpec.Limits(new CheckedSpec.Memory(memory, resources.memory, heap),
                new CheckedSpec.Cpu(cpu, resources.cpu), new CheckedSpec.Storage(tmpSize, modelsSize));
    }

    /** The default for the limit, or the override; the rest of the limit is what native memory (models, rerank runs, the JVM itself) gets. */
    private static Long heap(String override, long memory, List<String> problems) {
        if (override == null) {
            return HeapSize.forLimit(memory);
        }
        Quantities.ByteRange range = new Quantities.ByteRange(MIN_HEAP_BYTES, "64Mi", memory - MIN_NATIVE_BYTES,
                Mebibytes.ceil(memory - MIN_NATIVE_BYTES) + "Mi (the memory limit less 256Mi)", "too small for the server's index");
        return Quantities.bytes("spec.resources.heap", override.strip(), range, problems);
    }

    private static String storage(String at, String given, String fallback, Quantities.ByteRange range, List<String> problems) {
        if (given == null) {
            return fallback;
        }
        String size = given.strip();
        Quantities.bytes(at, size, range, problems);
        return size;
    }
}
