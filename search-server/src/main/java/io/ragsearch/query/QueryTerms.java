package io.ragsearch.query;

import java.util.List;
import java.util.Set;

/**
 * A query as the lexical leg and the gate see it. {@code slots}: the informative analysed terms
 * (question filler removed), each with its IDF weight and the thesaurus terms that stand for it;
 * {@code labels}: article labels named ("제60조"); {@code documents}: ids of documents whose
 * title the query names ("근로기준법에서 …"); {@code bigrams}: character bigrams of the
 * informative words, for compounds the morphological analyzer splits differently on each side;
 * {@code unknownConcepts}: compounds the question names ("국민연금") that no article contains and
 * the thesaurus does not explain, so no article can answer that part of the question.
 */
public record QueryTerms(List<Slot> slots, List<Slot> labels, Set<String> documents, double documentIdf,
                         List<String> bigrams, List<String> expansions, List<String> unknownConcepts) {

    public QueryTerms {
        slots = List.copyOf(slots);
        labels = List.copyOf(labels);
        documents = Set.copyOf(documents);
        bigrams = List.copyOf(bigrams);
        expansions = List.copyOf(expansions);
        unknownConcepts = List.copyOf(unknownConcepts);
    }

    /** One unit of query information: a term (or label) and what else counts as finding it. */
    public record Slot(String term, double idf, List<String> alternatives) {
        public Slot {
            alternatives = List.copyOf(alternatives);
        }
    }

    public boolean isEmpty() {
        return slots.isEmpty() && labels.isEmpty() && documents.isEmpty();
    }

    public List<String> terms() {
        return slots.stream().map(Slot::term).toList();
    }

    @Override
    public String toString() {
        return terms() + " labels=" + labels.stream().map(Slot::term).toList() + " documents=" + documents
                + " expansions=" + expansions + " unknown=" + unknownConcepts;
    }
}
