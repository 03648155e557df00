package io.ragsearch.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Approximate nearest-article search through Lucene's HNSW graph over the same vectors. The
 * graph proposes {@code candidates} articles; each is rescored with the exact cosine from the
 * {@link VectorMatrix}, so the scores fusion and the gate read are the exact path's, and only
 * which articles reach the top can differ (recall, measured in docs/benchmarks.md).
 *
 * <p>Lucene doc ids are the index positions: the documents are added in order by one thread
 * and merged only with adjacent segments into one, which opening checks.
 */
public final class HnswVectors implements VectorIndex {

    static final String FIELD = "v";
    /** Commit data naming what the graph was built from; a persisted graph is used only for the same key. */
    static final String KEY = "ragsearch.vectors";

    /*
     * Lucene's indexing buffer before a flush starts a new segment (each segment is a graph of
     * its own; the final merge re-inserts every segment but the largest): up to 1900 MB, under
     * Lucene's per-thread limit, so that 1M vectors of dimension 384 (1.5 GB) make two segments,
     * but never more than a quarter of the heap, which also holds the vectors themselves.
     */
    private static final double MAX_INDEXING_BUFFER_MB = 1900;

    private final VectorMatrix matrix;
    private final VectorSearchSettings settings;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;

    private HnswVectors(VectorMatrix matrix, VectorSearchSettings settings, DirectoryReader reader) {
        this.matrix = matrix;
        this.settings = settings;
        this.reader = reader;
        this.searcher = new IndexSearcher(reader);
    }

    /**
     * Builds the graph over every row of the matrix.
     *
     * @param directory where the graph is written (kept there, for {@link #openIfCurrent}), or null for the heap
     * @param key what the vectors are (VectorGraphStore: their sha256), stored with the graph
     */
    public static HnswVectors build(VectorMatrix matrix, VectorSearchSettings settings, Path directory, String key)
            throws IOException {
        Directory dir = directory == null ? new ByteBuffersDirectory() : FSDirectory.open(directory);
        // Every core inserts the merged segments' nodes; a one-segment build uses one thread.
        int workers = Math.max(1, Runtime.getRuntime().availableProcessors());
        ExecutorService merging = workers > 1 ? Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "hnsw-merge");
            t.setDaemon(true);
            return t;
        }) : null;
        boolean built = false;
        try {
            KnnVectorsFormat format = settings.quantized()
                    ? new Lucene99HnswScalarQuantizedVectorsFormat(settings.maxConnections(), settings.beamWidth(), workers, 7, false,
                            null, merging)
                    : new Lucene99HnswVectorsFormat(settings.maxConnections(), settings.beamWidth(), workers, merging);
            IndexWriterConfig config = new IndexWriterConfig()
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                    .setMergePolicy(new LogByteSizeMergePolicy())
                    .setRAMBufferSizeMB(indexingBufferMb(Runtime.getRuntime().maxMemory()))
                    .setCodec(new Lucene912Codec() {
                        @Override
                        public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                            return format;
                        }
                    });
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                KnnFloatVectorField field = new KnnFloatVectorField(FIELD, new float[matrix.dimension()],
                        VectorSimilarityFunction.DOT_PRODUCT);
                Document doc = new Document();
                doc.add(field);
                for (int i = 0; i < matrix.rows(); i++) {
                    // Lucene copies the value into its buffer: one field object serves every row.
                    field.setVectorValue(matrix.row(i));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
                writer.setLiveCommitData(Map.of(KEY, identity(key, settings)).entrySet());
                writer.commit();
            }
            HnswVectors opened = open(matrix, settings, dir);
            built = true;
            return opened;
        } finally {
            if (merging != null) {
                merging.shutdown();
            }
            if (!built) {
                dir.close();
            }
        }
    }

    static double indexingBufferMb(long maxHeapBytes) {
        return Math.max(16, Math.min(MAX_INDEXING_BUFFER_MB, maxHeapBytes / 4.0 / (1 << 20)));
    }

    /** What a persisted graph is: the caller's key for the vectors, and the settings that shape the graph. */
    private static String identity(String key, VectorSearchSettings settings) {
        return (key == null ? "" : key) + " M=" + settings.maxConnections() + " beamWidth=" + settings.beamWidth()
                + (settings.quantized() ? " int8" : " float");
    }

    /**
     * Opens a graph written by {@link #build} in {@code directory} for the same vectors; empty
     * result (null) when the directory holds none, another key's or settings', or one whose size differs.
     */
    public static HnswVectors openIfCurrent(VectorMatrix matrix, VectorSearchSettings settings, Path directory, String key)
            throws IOException {
        Directory dir = FSDirectory.open(directory);
        if (!DirectoryReader.indexExists(dir)) {
            dir.close();
            return null;
        }
        DirectoryReader reader = DirectoryReader.open(dir);
        String stored = reader.getIndexCommit().getUserData().get(KEY);
        if (!identity(key, settings).equals(stored) || reader.leaves().size() != 1 || reader.maxDoc() != matrix.rows()) {
            reader.close();
            dir.close();
            return null;
        }
        return new HnswVectors(matrix, settings, reader);
    }

    private static HnswVectors open(VectorMatrix matrix, VectorSearchSettings settings, Directory dir) throws IOException {
        DirectoryReader reader = DirectoryReader.open(dir);
        if (reader.leaves().size() != 1 || reader.maxDoc() != matrix.rows()) {
            String found = reader.leaves().size() + " segments and " + reader.maxDoc() + " vectors";
            reader.close();
            throw new IOException("vector graph has " + found + "; expected 1 segment and " + matrix.rows() + " vectors");
        }
        return new HnswVectors(matrix, settings, reader);
    }

    @Override
    public VectorMatrix matrix() {
        return matrix;
    }

    @Override
    public List<RankedArticle> nearest(float[] query, int limit) {
        return nearest(query, limit, settings.candidates());
    }

    /** As {@link #nearest(float[], int)} with the graph search keeping {@code candidates} (at least {@code limit}). */
    public List<RankedArticle> nearest(float[] query, int limit, int candidates) {
        int n = Math.min(limit, matrix.rows());
        if (n <= 0) {
            return List.of();
        }
        candidates = Math.max(candidates, n);
        ScoreDoc[] hits;
        try {
            hits = searcher.search(new KnnFloatVectorQuery(FIELD, query, candidates), candidates).scoreDocs;
        } catch (IOException e) {
            throw new UncheckedIOException("vector graph read failed", e);
        }
        TopK top = new TopK(n);
        for (ScoreDoc hit : hits) {
            top.offer(hit.doc, matrix.dot(query, hit.doc));
        }
        return top.drainBestFirst();
    }

    @Override
    public boolean approximate() {
        return true;
    }

    @Override
    public void close() {
        try {
            Directory dir = reader.directory();
            reader.close();
            dir.close();
        } catch (IOException e) {
            // a reader's files: nothing left to recover on close
        }
    }
}
