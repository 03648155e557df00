package io.ragsearch.index;

/**
 * How a project's vector leg finds its nearest articles: an exact scan below {@code exactBelow}
 * vectors, Lucene's HNSW graph from there on. The defaults and the reasons for them are in
 * docs/architecture.md ("Vector search") with the figures in docs/benchmarks.md.
 *
 * @param exactBelow    corpora with fewer vectors are scanned exactly
 * @param maxConnections HNSW's M: neighbours kept per node (per layer; twice that on layer 0)
 * @param beamWidth     candidates considered when a node's neighbours are chosen at build time
 * @param candidates    candidates the graph search keeps (its beam); at least the leg's depth is asked for
 * @param quantized     int8 scalar quantization of the graph's vectors (raw vectors still rescore the hits)
 */
public record VectorSearchSettings(int exactBelow, int maxConnections, int beamWidth, int candidates, boolean quantized) {

    /*
     * Exact below 20,000: a scan of 20,000 vectors of dimension 384 costs about as much as a
     * graph search at this beam on this hardware (the crossover in docs/benchmarks.md), and
     * every project the eval sets cover is far smaller, so their rankings stay exactly today's.
     * M 16 / beamWidth 100 / 100 candidates: the smallest settings measured to keep recall@10
     * against exact at or above 0.99 on the statutes and on the synthetic 100k corpus.
     */
    public static final VectorSearchSettings DEFAULTS = new VectorSearchSettings(20_000, 16, 100, 100, false);

    public VectorSearchSettings {
        if (exactBelow < 0 || maxConnections < 2 || maxConnections > 512 || beamWidth < 1 || beamWidth > 3200 || candidates < 1) {
            throw new IllegalArgumentException("vector search settings out of range: exactBelow " + exactBelow + ", M " + maxConnections
                    + " (2..512), beamWidth " + beamWidth + " (1..3200), candidates " + candidates + " (≥ 1)");
        }
    }

    /** True when a corpus of {@code vectors} is searched through the graph. */
    public boolean approximate(int vectors) {
        return vectors >= exactBelow;
    }
}
