package io.ragsearch.index;

/**
 * How a project's vector leg finds its nearest articles: an exact scan below {@code exactBelow}
 * vectors, Lucene's HNSW graph from there on. The defaults and the reasons for them are in
 * docs/search.md ("Vector search") with the figures in docs/benchmarks.md.
 *
 * @param exactBelow    corpora with fewer vectors are scanned exactly
 * @param maxConnections HNSW's M: neighbours kept per node (per layer; twice that on layer 0)
 * @param beamWidth     candidates considered when a node's neighbours are chosen at build time
 * @param candidates    candidates the graph search keeps (its beam); at least the leg's depth is asked for
 * @param quantized     int8 scalar quantization of the graph's vectors (raw vectors still rescore the hits)
 */
public record VectorSearchSettings(int exactBelow, int maxConnections, int beamWidth, int candidates, boolean quantized) {

    /*
     * Exact below 10,000 articles. The graph answers sooner from about 2,000 on (the crossover in
     * docs/benchmarks.md, "Vector search at scale"), but it must be built first: 8 CPU-seconds at
     * 10,000 and 86 at 100,000 on Java 17 (Lucene's Panama vector code needs 21), paid at every
     * start unless a vector cache keeps the graph (VectorGraphStore), while the exact scan of
     * 10,000 costs 2.8 CPU-ms per query, small beside the query's embedding. Every project the
     * eval sets cover (at most the statutes' 843 live articles) stays exact, so their rankings
     * are exactly those before the graph.
     * M 16, beamWidth 100 (Lucene's defaults) and 100 candidates: recall@10 against exact 0.991
     * on the synthetic 100k corpus and 1.000 on the statutes; 50 candidates gave 0.96 at 100k.
     * int8: the graph is searched over the int8 copy, so the raw vectors Lucene also keeps on
     * disk are never read (hits are rescored from the heap matrix): 42 MiB resident against
     * 151 MiB at 100k, same recall, same build cost.
     */
    public static final VectorSearchSettings DEFAULTS = new VectorSearchSettings(10_000, 16, 100, 100, true);

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
