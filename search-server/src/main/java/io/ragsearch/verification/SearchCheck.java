package io.ragsearch.verification;

import io.ragsearch.eval.ArticleRef;
import io.ragsearch.eval.Question;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A search whose answer must contain one of the expected articles within the first {@code within}
 * results, or must be refused ("no supporting documents"). Two servers differ when the rank, the
 * refusal, or the gate's best evidence (by {@link #SCORE_DIFFERENCE} or more) differ.
 */
public record SearchCheck(String id, String project, String query, List<ArticleRef> expect, boolean refused, int within)
        implements Check {

    /** Below this the best evidence of two servers counts as equal: float noise, not a change worth a line. */
    static final double SCORE_DIFFERENCE = 0.05;

    public SearchCheck {
        expect = List.copyOf(expect);
    }

    static SearchCheck of(Question q, int within) {
        return new SearchCheck(q.id(), q.project(), q.query(), q.expect(), q.refused(), within);
    }

    /** What came back: the rank of the first expected article (0: not within), refused, the best evidence, the first result. */
    record Facts(int rank, boolean refused, double bestScore, String first) {
    }

    @Override
    public String kind() {
        return "search";
    }

    @Override
    public String describe() {
        return "search " + project + " \"" + Calls.cut(query, 60) + "\" → "
                + (refused ? "no supporting documents" : expect.get(0) + (expect.size() > 1 ? " (or " + (expect.size() - 1) + " more)" : "")
                + " in the top " + within);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Observation observe(Side side) {
        Calls.Timed t = Calls.call(side, "search", Map.of("project", project, "query", query, "top_k", within));
        if (t.failure() != null) {
            return t.failure();
        }
        if (t.answer().error()) {
            return Calls.unexpectedError(t);
        }
        try {
            Map<String, Object> body = t.answer().structured();
            List<ArticleRef> results = new ArrayList<>();
            for (Object o : (List<Object>) body.get("results")) {
                Map<String, Object> hit = (Map<String, Object>) o;
                results.add(new ArticleRef((String) hit.get("document"), (String) hit.get("article")));
            }
            Map<String, Object> gate = (Map<String, Object>) body.get("gate");
            boolean wasRefused = !Boolean.TRUE.equals(gate.get("passed"));
            double best = ((Number) gate.get("bestScore")).doubleValue();
            int rank = 0;
            for (int i = 0; i < results.size() && rank == 0; i++) {
                ArticleRef r = results.get(i);
                if (expect.stream().anyMatch(r::sameAs)) {
                    rank = i + 1;
                }
            }
            Facts f = new Facts(rank, wasRefused, best, results.isEmpty() ? null : results.get(0).toString());
            return Observation.of(shown(f), f, t.millis());
        } catch (RuntimeException e) {
            return Observation.failed("bad answer", "the search answer does not have the declared shape (results, gate)", t.millis());
        }
    }

    private String shown(Facts f) {
        String best = String.format(Locale.ROOT, " (%.2f)", f.bestScore());
        if (f.refused()) {
            return "refused" + best;
        }
        if (refused) {
            return "answered" + best;
        }
        return (f.rank() == 0 ? "not in top " + within : "rank " + f.rank()) + best;
    }

    @Override
    public String problem(Observation own, Observation baseline) {
        if (own.failed()) {
            return own.failure();
        }
        Facts f = (Facts) own.facts();
        if (refused) {
            return f.refused() ? null : "expected no supporting documents, got " + f.first() + " first (best relevance "
                    + String.format(Locale.ROOT, "%.3f", f.bestScore()) + ")";
        }
        if (f.refused()) {
            return String.format(Locale.ROOT, "expected %s in the top %d, got no supporting documents (best relevance %.3f)",
                    expect.get(0), within, f.bestScore());
        }
        return f.rank() >= 1 ? null : "expected " + expect.get(0) + " in the top " + within + ", got "
                + (f.first() == null ? "no results" : f.first() + " first") + " and the expected article not among them";
    }

    @Override
    public String difference(Observation baseline, Observation candidate) {
        if (baseline.failed() || candidate.failed()) {
            return Check.shownDifference(baseline, candidate, null, null);
        }
        Facts b = (Facts) baseline.facts();
        Facts c = (Facts) candidate.facts();
        if (b.refused() != c.refused() || (!refused && b.rank() != c.rank())) {
            return word(b) + " → " + word(c);
        }
        if (refused && !b.refused() && !java.util.Objects.equals(b.first(), c.first())) {
            return "first " + b.first() + " → " + c.first();
        }
        if (Math.abs(b.bestScore() - c.bestScore()) >= SCORE_DIFFERENCE) {
            return String.format(Locale.ROOT, "best %.2f → %.2f", b.bestScore(), c.bestScore());
        }
        return null;
    }

    private String word(Facts f) {
        if (f.refused()) {
            return "refused";
        }
        if (refused) {
            return "answered";
        }
        return f.rank() == 0 ? "not in top " + within : "rank " + f.rank();
    }
}
