package io.ragsearch.operator.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.RerankStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The planner on the two rerank cost stand-ins' measured figures: the concurrency table of
 * docs/reranking.md ("At the field's scale"), at memory limits of 1500 MiB, 2, 4 and 8 GiB,
 * the default 10 % headroom and no CPU limit (the planner's cap of 8 then applies).
 *
 * <p>The figures are fixtures copied from {@code ragsearch-server.jar calibrate} runs on
 * 2026-12-06 (process RSS, a pre-touched 256 MiB heap, 32 pairs, one burst; the commands are in
 * the doc). The large stand-in's rows are from the runs after its pairs were encoded by the
 * server's own Unigram tokenizer instead of the Rust library's, resident and per run both from
 * those runs (before: resident 1,258,655,744 and 1,257,385,984 bytes, per run 940,345,754 and
 * 2,536,499,610; at 256 tokens 2 GiB then fitted no run and 4 and 8 GiB one fewer).
 * This tests the planner on them; it is not a measurement of the models.
 */
class StandInConcurrencyTableTest {

    private static final List<String> LIMITS = List.of("1500Mi", "2Gi", "4Gi", "8Gi");

    /** A stand-in's measurement and the (byMemory, effective) pairs the doc lists for LIMITS. */
    record Row(String name, long residentBytes, long perRunBytes, long[] byMemory, int[] effective) {
    }

    static final List<Row> TABLE = List.of(
            new Row("minilm-pair 32x256", 469_905_408L, 342_515_712L, new long[] {2, 4, 9, 21}, new int[] {2, 4, 8, 8}),
            new Row("minilm-pair 32x512", 477_646_848L, 1_130_446_029L, new long[] {0, 1, 2, 6}, new int[] {1, 1, 2, 6}),
            new Row("xlmr-large-pair-cost 32x256", 966_201_344L, 946_279_629L, new long[] {0, 1, 3, 7}, new int[] {1, 1, 3, 7}),
            new Row("xlmr-large-pair-cost 32x512", 974_004_224L, 2_536_031_028L, new long[] {0, 0, 1, 2}, new int[] {1, 1, 1, 2}));

    @Test
    void thePlannerGivesTheDocumentedConcurrencyForEachStandInAndLimit() {
        for (Row row : TABLE) {
            for (int i = 0; i < LIMITS.size(); i++) {
                String where = row.name() + " at " + LIMITS.get(i);
                boolean large = row.name().startsWith("xlmr");
                RerankPlanner.Plan plan = RerankPlanner.plan(RerankPlannerTest.spec(LIMITS.get(i), large ? largeModel() : builtin()),
                        null, List.of(new RerankPlanner.PodMeasurement("pod", new MeasuredCost(row.residentBytes(), row.perRunBytes(), 1,
                                "rss", "2026-12-06T09:00:00Z", null, "pod", large ? "sha256:" + LARGE_SHA256 : "sha256:s"))));
                assertEquals(RerankStatus.BASIS_MEASURED, plan.status().basis, where);
                assertEquals(row.byMemory()[i], plan.safe().byMemory(), where + ": byMemory");
                assertEquals(row.effective()[i], plan.effective().concurrency(), where + ": effective concurrency");
                // Not even one run fits: the operator still runs one and says MemoryInsufficient.
                assertEquals(row.byMemory()[i] < 1, plan.memoryInsufficient(), where + ": MemoryInsufficient");
            }
        }
    }

    private static final String LARGE_SHA256 = "09e31d354d725985f8ae0b2a1019b30881b799240de86284c4b59182952f6566";

    private static ModelSource builtin() {
        ModelSource m = new ModelSource();
        m.builtin = "minilm-pair";
        return m;
    }

    /**
     * The large stand-in is not one of the operator's built-ins (its image does not carry it): in a
     * cluster a reranker of that size is a url (or pvc) model, and the planner trusts only pods that
     * measured the file of its sha256.
     */
    private static ModelSource largeModel() {
        ModelSource m = new ModelSource();
        m.url = "https://models.example/xlmr-large-pair-cost.zip";
        m.sha256 = LARGE_SHA256;
        return m;
    }
}
