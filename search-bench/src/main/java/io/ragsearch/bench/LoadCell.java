package io.ragsearch.bench;

/** One cell of the load table: a corpus, a rerank concurrency, a number of concurrent searches. */
record LoadCell(String corpus, String rerank, int rerankPermits, int concurrentSearches, int searches, int failed, int busy,
                double totalSeconds, double searchP50Ms, double searchP95Ms, double livezP50Ms, double livezP99Ms,
                double livezMaxMs, int livezSamples, long peakBytes, long predictedPeakBytes, double candidatesPerSecond) {
}
