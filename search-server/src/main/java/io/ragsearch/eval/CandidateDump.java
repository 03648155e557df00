package io.ragsearch.eval;

import io.ragsearch.corpus.ArticleLabels;
import io.ragsearch.index.IndexedArticle;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.query.QueryTerms;
import io.ragsearch.search.SearchService;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the pipeline saw for each question, one JSON line per question: both legs before fusion
 * (position keys, scores), every candidate's coverage and cosine and whether it is an expected
 * article, the plain BM25 baseline's order, and the query's analysis. Fusion and gate variants are
 * compared on these lines offline, and the gate's trainer (scripts/eval/train-gate.py) reads them.
 * Written for dev sets only: a held-out set dumped is a held-out set read.
 */
public final class CandidateDump {

    private static final int BM25_DEPTH = 100;

    private final SearchService search;
    private final Bm25Baseline bm25;
    private final JsonMapper json = JsonMapper.builder().build();

    public CandidateDump(SearchService search, Bm25Baseline bm25) {
        this.search = search;
        this.bm25 = bm25;
    }

    public void write(QuestionFile set, Writer out) throws IOException {
        for (Question q : set.questions()) {
            out.write(json.writeValueAsString(line(set.set(), q)));
            out.write('\n');
        }
    }

    private Map<String, Object> line(String setName, Question q) throws IOException {
        SearchService.Retrieval r = search.retrieve(q.project(), q.query());
        ProjectIndex index = r.project().index();
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int p = 0; p < index.size(); p++) {
            positions.put(key(index.article(p)), p);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("set", setName);
        o.put("id", q.id());
        o.put("kind", q.kind());
        o.put("project", q.project());
        o.put("refused", q.refused());
        o.put("language", index.language().name());
        o.put("midpoint", r.project().cosineEvidence().midpoint());
        QueryTerms t = r.terms();
        double maxIdf = Math.log(1 + (index.size() - 0.5) / 1.5);
        double total = 0;
        double rare = 0;
        for (QueryTerms.Slot s : t.slots()) {
            total += s.idf();
            rare += s.idf() >= maxIdf - 1e-9 ? s.idf() : 0;
        }
        o.put("slots", t.slots().size());
        o.put("labels", t.labels().size());
        o.put("documents", t.documents().size());
        o.put("unknown", t.unknownConcepts().size());
        o.put("rareShare", total == 0 ? 0 : rare / total);
        o.put("lex", leg(r.lexical()));
        o.put("vec", leg(r.vector()));
        List<Integer> plain = new ArrayList<>();
        for (ArticleRef a : bm25.search(q.project(), q.query(), BM25_DEPTH).results()) {
            Integer p = positions.get(a.document() + "\u0001" + ArticleLabels.normalize(a.article()));
            if (p != null) {
                plain.add(p);
            }
        }
        o.put("bm25", plain);
        // Every position any leg named, with what the gate and the fusion read of it.
        Map<String, Object> candidates = new LinkedHashMap<>();
        List<Integer> all = new ArrayList<>(plain);
        r.lexical().forEach(a -> all.add(a.position()));
        r.vector().forEach(a -> all.add(a.position()));
        for (int p : all) {
            IndexedArticle a = index.article(p);
            double cosine = r.queryVector() == null ? 0 : index.cosine(r.queryVector(), p);
            boolean hit = !q.refused() && q.rankIn(List.of(new ArticleRef(a.document().id(), a.article().label()))) == 1;
            candidates.put(Integer.toString(p), List.of(index.coverage(t, p), cosine, hit ? 1 : 0));
        }
        o.put("candidates", candidates);
        return o;
    }

    private static List<List<Number>> leg(List<RankedArticle> leg) {
        List<List<Number>> out = new ArrayList<>();
        leg.forEach(a -> out.add(List.of(a.position(), a.score())));
        return out;
    }

    private static String key(IndexedArticle a) {
        return a.document().id() + "\u0001" + ArticleLabels.normalize(a.article().label());
    }
}
