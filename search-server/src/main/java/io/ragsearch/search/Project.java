package io.ragsearch.search;

import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.rerank.Reranker;
import java.util.List;

/**
 * A loaded project: its corpus, its index, the retrieval mode in force, and how the embedding
 * model's cosine reads as gate evidence. {@code modeReason}
 * says why, when AUTO chose (e.g. "vector leg off: the embedding model covers 3% of the words").
 */
public record Project(String name, String description, Corpus corpus, ProjectIndex index,
                      RetrievalMode mode, String modeReason, RelevanceGate gate, List<String> loadProblems,
                      Reranker reranker, CosineEvidence cosineEvidence) {

    /** What reranking does for this project, in words for /info and list_projects. */
    public String rerankDescription() {
        if (reranker == null) {
            return "none: no cross-encoder configured, the fused hybrid order stands";
        }
        return reranker.trained() ? "cross-encoder " + reranker.name() + " reorders and gates the top candidates"
                : reranker.name() + " cost stand-in: does the work of " + reranker.costOf()
                        + " cross-encoder, never changes order or gate";
    }

    /** The same project judged by another gate (eval's threshold sweep). */
    public Project withGate(RelevanceGate other) {
        return new Project(name, description, corpus, index, mode, modeReason, other, loadProblems, reranker, cosineEvidence);
    }

    /** The same project with another reading of the cosine as evidence (eval's midpoint sweep). */
    public Project withCosineEvidence(CosineEvidence other) {
        return new Project(name, description, corpus, index, mode, modeReason, gate, loadProblems, reranker, other);
    }

    public Document document(String id) {
        return corpus.document(id).orElseThrow(() -> new NotFoundException(
                "unknown document " + MessageText.quoted(id) + " in project '" + name + "'; documents: "
                        + MessageText.listed(corpus.documents().stream().map(Document::id).toList())));
    }
}
