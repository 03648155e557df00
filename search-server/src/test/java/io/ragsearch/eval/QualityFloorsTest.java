package io.ragsearch.eval;

import io.ragsearch.config.ServerEnvironment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.ModelFiles;
import io.ragsearch.search.SharedCorpus;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SettingsResolver;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Search quality with the defaults (the built-in multilingual model, hybrid ranking, its gate),
 * on the project's own question sets, against the plain baselines on the same sets. Floors sit
 * just below the figures measured when the ranking last changed (docs/benchmarks.md,
 * "Quality"): a change that loses quality fails here. Held-out sets are run for their
 * aggregate figures only; their floors record what the defaults give, never a target tuned on.
 */
class QualityFloorsTest {

    @BeforeAll
    static void theDefaultsUseTheMultilingualModel() {
        assertEquals(ModelFiles.BUILTIN_E5, SettingsResolver.defaultEmbedding(ServerEnvironment.read(System.getenv())).builtin(),
                "the built-in multilingual model is not installed: run scripts/model/fetch-e5.sh (the test command does)");
    }

    @Test
    void koreanStatutesDevSetBeatsTheBaselines() throws Exception {
        Figures f = run("statutes", SharedCorpus.koStatutes(), "ko-statutes-dev.yaml");
        f.beatsBm25("hit5", "mrr", "paraphrase.mrr");
        f.beatsFusion("hit5", "mrr");
        f.floors("hit5=0.84", "mrr=0.76", "paraphrase.mrr=0.48", "keyword.mrr=0.93", "detail.mrr=0.85", "kept=0.95", "refused=0.30");
    }

    @Test
    void koreanAgencyRulesDevSetBeatsTheBaselines() throws Exception {
        Figures f = run("agency", EvalSets.corpus("agency-ko"), "agency-ko-dev.yaml");
        f.beatsBm25("hit5", "mrr", "paraphrase.mrr", "spacing.mrr");
        f.beatsFusion("mrr", "paraphrase.mrr");
        f.floors("hit5=0.97", "mrr=0.92", "paraphrase.hit5=0.95", "typo.mrr=0.95", "kept=0.95", "refused=0.60");
    }

    @Test
    void koreanHeldOutSetsStayWhereTheyWere() throws Exception {
        Figures statutes = run("statutes", SharedCorpus.koStatutes(), "ko-statutes-holdout2.yaml");
        statutes.floors("hit5=0.89", "mrr=0.77", "paraphrase.hit5=0.45", "keyword.mrr=0.95", "kept=0.95", "refused=0.40");
        Figures agency = run("agency", EvalSets.corpus("agency-ko"), "agency-ko-holdout.yaml");
        agency.floors("hit5=0.88", "mrr=0.87", "paraphrase.hit5=0.55", "keyword.mrr=0.95", "kept=0.93", "refused=0.70");
    }

    /**
     * Issue 31's blind sets, written by a helper who had not read the ranking code, about articles the
     * dev sets do not target (one a corpus of its own): floors at what the defaults gave when they were
     * first run (docs/benchmarks.md, "Every held-out set per kind"), and no worse than plain BM25.
     */
    @Test
    void koreanBlindSetsOfIssue31StayWhereTheyWere() throws Exception {
        Figures statutes = run("statutes", SharedCorpus.koStatutes(), "ko-statutes-holdout3.yaml");
        statutes.beatsBm25("hit5", "mrr", "paraphrase.hit5");
        statutes.floors("hit5=0.68", "mrr=0.58", "paraphrase.hit5=0.37", "kept=0.95", "refused=0.50");
        Figures agency = run("agency", EvalSets.corpus("agency-ko"), "agency-ko-holdout2.yaml");
        agency.beatsBm25("hit5", "mrr", "paraphrase.hit5");
        agency.floors("hit5=0.79", "mrr=0.64", "paraphrase.hit5=0.61", "kept=0.91", "refused=0.66");
        Figures university = run("university-ko", EvalSets.corpus("university-ko"), "university-ko-holdout.yaml");
        university.beatsBm25("hit5", "mrr", "paraphrase.hit5");
        university.floors("hit5=0.65", "mrr=0.58", "paraphrase.hit5=0.41", "kept=0.93", "refused=0.62");
    }

    @Test
    void englishDevSetsBeatBothBaselines() throws Exception {
        Figures handbook = run("handbook-en", TestProjects.sampleDirectory("en"), "handbook-en.yaml");
        handbook.beatsBm25("hit5", "mrr", "paraphrase.mrr");
        handbook.beatsFusion("hit5", "mrr", "paraphrase.mrr");
        handbook.floors("hit5=0.95", "mrr=0.92", "kept=0.95", "refused=0.55");
        Figures policies = run("policies-en", EvalSets.corpus("policies-en"), "policies-en-dev.yaml");
        policies.beatsBm25("hit5", "mrr");
        // Level with the plain hybrid on hit@1 and hit@5; MRR@10 is .003 below it (.925 vs .928) since each leg's first
        // candidate is kept in the top two (ScoreFusion.keepLegLeaders): one paraphrase went from second to fourth, while
        // the statutes dev set gained .035 (docs/benchmarks.md, "Issue 31").
        policies.holdsFusion("hit1", "hit5");
        policies.floors("hit5=0.95", "mrr=0.91", "kept=0.95", "refused=0.70");
    }

    @Test
    void englishHeldOutSetsStayWhereTheyWere() throws Exception {
        Figures policies = run("policies-en", EvalSets.corpus("policies-en"), "policies-en-holdout.yaml");
        policies.beatsBm25("hit5", "mrr");
        policies.beatsFusion("hit1", "mrr");
        policies.holdsFusion("hit5");
        policies.floors("hit5=0.95", "mrr=0.90", "paraphrase.hit5=0.95", "kept=0.95", "refused=0.70");
        Figures handbook = run("handbook-en", TestProjects.sampleDirectory("en"), "handbook-en-holdout.yaml");
        handbook.floors("refused=0.65");
        // A corpus no dev set covers (issue 20's second round of held-out sets).
        Figures benefits = run("benefits-en", EvalSets.corpus("benefits-en"), "benefits-en-holdout.yaml");
        benefits.beatsBm25("hit5", "mrr", "paraphrase.mrr");
        benefits.beatsFusion("hit5", "mrr", "paraphrase.mrr");
        benefits.floors("hit5=0.78", "mrr=0.76", "keyword.mrr=0.95", "kept=0.86", "refused=0.55");
    }

    @Test
    void koreanCompanyHandbookHeldOutStaysWhereItWas() throws Exception {
        Figures handbook = run("handbook-ko", EvalSets.corpus("handbook-ko"), "handbook-ko-holdout.yaml");
        handbook.beatsBm25("mrr");
        handbook.floors("hit5=0.89", "mrr=0.82", "keyword.mrr=0.95", "kept=0.92", "refused=0.75");
    }

    /** The set run by the defaults and by both plain baselines on the same projects, printed side by side. */
    private static Figures run(String project, Path dir, String file) throws Exception {
        EvalSets.Loaded loaded = EvalSets.load(project, dir);
        QuestionFile set = QuestionFile.load(EvalSets.file(file));
        EvalSummary ours = EvalSets.run(new InProcessBackend(loaded.search()), set);
        try (Bm25Baseline bm25 = new Bm25Baseline(loaded.catalog().all())) {
            EvalSummary plain = EvalSets.run(bm25, set);
            EvalSummary fusion = EvalSets.run(new FusionBaseline(bm25, loaded.search(), loaded.catalog()), set);
            System.out.print(EvalReport.table(List.of(ours, plain, fusion)));
            return new Figures(ours, plain, fusion);
        }
    }

    private record Figures(EvalSummary ours, EvalSummary bm25, EvalSummary fusion) {

        void beatsBm25(String... metrics) {
            beats(bm25, metrics);
        }

        void beatsFusion(String... metrics) {
            beats(fusion, metrics);
        }

        /** At least as good as the plain hybrid: where both rank every question right, nothing is left to beat. */
        void holdsFusion(String... metrics) {
            for (String metric : metrics) {
                assertTrue(ours.metric(metric) >= fusion.metric(metric) - 1e-9, String.format(Locale.ROOT, "%s %s: ragsearch %.3f, %s %.3f",
                        ours.set(), metric, ours.metric(metric), fusion.backend(), fusion.metric(metric)));
            }
        }

        private void beats(EvalSummary other, String... metrics) {
            for (String metric : metrics) {
                assertTrue(ours.metric(metric) > other.metric(metric), String.format(Locale.ROOT, "%s %s: ragsearch %.3f, %s %.3f",
                        ours.set(), metric, ours.metric(metric), other.backend(), other.metric(metric)));
            }
        }

        void floors(String... floors) {
            List<EvalReport.Verdict> verdicts = EvalReport.judge(ours, List.of(floors).stream().map(EvalReport.Floor::parse).toList());
            assertTrue(verdicts.stream().allMatch(EvalReport.Verdict::met), EvalReport.verdicts(verdicts));
        }
    }
}
