package io.ragsearch.eval;

import java.util.ArrayList;
import java.util.List;

/** Asks a backend every question of a file, in order, one at a time (latency is per question, not under load). */
public final class EvalRun {

    /** Results are read to rank 10 (hit@10, MRR@10). */
    public static final int DEPTH = 10;

    private EvalRun() {
    }

    public static List<QuestionResult> run(SearchBackend backend, QuestionFile file) throws Exception {
        List<QuestionResult> out = new ArrayList<>(file.questions().size());
        for (Question q : file.questions()) {
            long t0 = System.nanoTime();
            SearchBackend.Answer a = backend.search(q.project(), q.query(), DEPTH);
            double millis = (System.nanoTime() - t0) / 1e6;
            out.add(new QuestionResult(q, q.refused() ? 0 : q.rankIn(a.results()), a.refused(), a.bestScore(), millis));
        }
        return out;
    }
}
