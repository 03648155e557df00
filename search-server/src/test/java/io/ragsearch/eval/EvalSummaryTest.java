package io.ragsearch.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EvalSummaryTest {

    private static Question answerable(String id, String kind) {
        return new Question(id, kind, "p", "q", List.of(new ArticleRef("d", "제1조")), false);
    }

    private static Question unanswerable(String id) {
        return new Question(id, "unanswerable", "p", "q", List.of(), true);
    }

    /** Ranks 1, 3, 7, not found, and one refused answerable; two unanswerable, one refused. */
    private static final List<QuestionResult> RESULTS = List.of(
            new QuestionResult(answerable("a", "keyword"), 1, false, 0.9, 1),
            new QuestionResult(answerable("b", "keyword"), 3, false, 0.8, 2),
            new QuestionResult(answerable("c", "paraphrase"), 7, false, 0.6, 3),
            new QuestionResult(answerable("d", "paraphrase"), 0, false, 0.5, 4),
            new QuestionResult(answerable("e", "paraphrase"), 0, true, 0.2, 5),
            new QuestionResult(unanswerable("u"), 0, true, 0.1, 6),
            new QuestionResult(unanswerable("v"), 0, false, 0.7, 100));

    @Test
    void figuresPerKindAndOverAllAnswerableQuestions() {
        EvalSummary s = EvalSummary.of("set", "ragsearch", RESULTS);
        EvalSummary.Row all = s.answerable();
        assertEquals(5, all.questions());
        assertEquals(0.2, all.hit1(), 1e-9);
        assertEquals(0.4, all.hit5(), 1e-9);
        assertEquals(0.6, all.hit10(), 1e-9);
        assertEquals((1 + 1 / 3.0 + 1 / 7.0) / 5, all.mrr(), 1e-9);
        assertEquals(0.8, all.kept(), 1e-9);
        assertEquals(0.5, s.unanswerable().refused(), 1e-9);
        assertEquals((1 + 1 / 3.0) / 2, s.metric("keyword.mrr"), 1e-9);
        assertEquals(0.0, s.metric("paraphrase.hit5"), 1e-9);
        assertEquals(0.5, s.metric("refused"), 1e-9);
        assertTrue(Double.isNaN(s.byKind().get("unanswerable").mrr()));
        assertEquals(4, s.p50Millis());
        assertEquals(100, s.p95Millis());
    }

    @Test
    void floorsJudgeAndUnknownMetricsAreNamed() {
        EvalSummary s = EvalSummary.of("set", "ragsearch", RESULTS);
        List<EvalReport.Verdict> v = EvalReport.judge(s, List.of(EvalReport.Floor.parse("hit5=0.4"),
                EvalReport.Floor.parse("mrr=0.5"), EvalReport.Floor.parse("unanswerable.hit5=0")));
        assertTrue(v.get(0).met());
        assertFalse(v.get(1).met());
        assertFalse(v.get(2).met(), "a metric with no questions behind it fails its floor");
        assertTrue(assertThrows(EvalException.class, () -> s.metric("nosuch.mrr")).getMessage().contains("kinds: keyword"));
        assertTrue(assertThrows(EvalException.class, () -> s.metric("ndcg")).getMessage().contains("unknown metric"));
        assertThrows(EvalException.class, () -> EvalReport.Floor.parse("hit5"));
        assertThrows(EvalException.class, () -> EvalReport.Floor.parse("hit5=high"));
    }

    @Test
    void theGateCurveComesFromOneOpenRun() {
        GateCurve curve = GateCurve.of("set", RESULTS, 0.25);
        assertEquals(5, curve.points().size());
        GateCurve.Point open = curve.points().get(0);
        assertEquals(1.0, open.kept(), 1e-9);
        assertEquals(0.0, open.refused(), 1e-9);
        GateCurve.Point half = curve.points().get(2);
        assertEquals(0.5, half.threshold(), 1e-9);
        assertEquals(0.8, half.kept(), 1e-9);
        assertEquals(0.5, half.refused(), 1e-9);
        assertEquals(0.4, half.hit5(), 1e-9);
    }
}
