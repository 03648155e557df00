package io.ragsearch.server;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.metrics.ProcessMemory;

/** The process's memory and the embedding model's work as gauges. */
final class ProcessGauges {

    private ProcessGauges() {
    }

    static void register(Metrics metrics, EmbeddingModelHolder embedding) {
        metrics.gauge("ragsearch_process_resident_bytes", "Resident set size of the server process", ProcessMemory::residentBytes);
        metrics.gauge("ragsearch_process_peak_resident_bytes", "Peak resident set size of the server process",
                ProcessMemory::peakResidentBytes);
        metrics.gauge("ragsearch_embedding_texts_total", "Texts embedded since start (articles at indexing, queries)",
                () -> embedding.loaded().map(e -> e.textsEmbedded()).orElse(0L));
        metrics.gauge("ragsearch_jvm_heap_used_bytes", "JVM heap in use",
                () -> Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
    }
}
