package io.ragsearch.query;

import java.util.List;

/**
 * What query analysis asks of the corpus it runs against: how rare a term or label is, and
 * whether some article writes a compound as the question does. The index answers; analysis
 * keeps no index of its own.
 */
public interface CorpusStatistics {

    /** The analysed field the query's words are compared with (the analyzer runs as for this field). */
    String BODY_FIELD = "body";
    /** The field of character bigrams. */
    String BIGRAM_FIELD = "body2";

    /** Live articles in the corpus. */
    int articles();

    /** IDF weight of an analysed body term; a term no article holds counts as the rarest, not infinitely rare. */
    double termIdf(String term);

    /** IDF weight of a normalised article label ("제60조"). */
    double labelIdf(String label);

    /** Whether some article title or body holds these character bigrams in a row. */
    boolean writesInARow(List<String> bigrams);
}
