package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.BuiltinModels;
import io.ragsearch.index.Language;
import org.junit.jupiter.api.Test;

class CosineEvidenceTest {

    @Test
    void rawEvidenceIsTheCosineWithNegativesAtZero() {
        assertFalse(CosineEvidence.RAW.calibrated());
        assertEquals(0.42, CosineEvidence.RAW.of(0.42), 1e-12);
        assertEquals(0.0, CosineEvidence.RAW.of(-0.3), 1e-12);
    }

    @Test
    void e5EvidenceIsOneHalfAtTheMidpointAndSeparatesTheNarrowBandE5Uses() {
        CosineEvidence e5 = CosineEvidence.E5;
        assertTrue(e5.calibrated());
        assertEquals(0.5, e5.of(e5.midpoint()), 1e-12);
        // e5 puts unrelated pairs near 0.78 and related ones above 0.88: evidence must tell them apart.
        assertTrue(e5.of(0.78) < 0.05, "unrelated: " + e5.of(0.78));
        assertTrue(e5.of(0.89) > 0.85, "related: " + e5.of(0.89));
        assertTrue(e5.of(0.84) < e5.of(0.85));
    }

    @Test
    void theModelNameAndTheProjectsLanguageChooseTheReading() {
        assertSame(CosineEvidence.E5, CosineEvidence.forModel(BuiltinModels.EMBEDDING_E5, Language.KOREAN));
        assertSame(CosineEvidence.E5_ENGLISH, CosineEvidence.forModel(BuiltinModels.EMBEDDING_E5, Language.ENGLISH));
        assertSame(CosineEvidence.RAW, CosineEvidence.forModel("all-minilm-l6-v2", Language.ENGLISH));
        assertSame(CosineEvidence.RAW, CosineEvidence.forModel("my-own-model", Language.KOREAN));
    }

    @Test
    void anEnglishCosineCountsForMoreThanTheSameKoreanOne() {
        // e5 puts English question-passage pairs lower: 0.835 answers an English question, not a Korean one.
        assertTrue(CosineEvidence.E5_ENGLISH.midpoint() < CosineEvidence.E5.midpoint());
        assertTrue(CosineEvidence.E5_ENGLISH.of(0.835) > 0.5, "English: " + CosineEvidence.E5_ENGLISH.of(0.835));
        assertTrue(CosineEvidence.E5.of(0.835) < 0.5, "Korean: " + CosineEvidence.E5.of(0.835));
        assertEquals(CosineEvidence.E5.width(), CosineEvidence.E5_ENGLISH.width());
    }

    @Test
    void theGateUsesTheCalibratedThresholdOnlyWhenVectorsGiveCalibratedEvidence() {
        assertEquals(RelevanceGate.CALIBRATED_THRESHOLD,
                RelevanceGate.defaultFor(RetrievalMode.HYBRID, false, CosineEvidence.E5).threshold());
        assertEquals(RelevanceGate.HYBRID_THRESHOLD,
                RelevanceGate.defaultFor(RetrievalMode.HYBRID, false, CosineEvidence.RAW).threshold());
        assertEquals(RelevanceGate.LEXICAL_THRESHOLD,
                RelevanceGate.defaultFor(RetrievalMode.LEXICAL, false, CosineEvidence.E5).threshold());
        assertEquals(0.7, RelevanceGate.of(0.7, RetrievalMode.HYBRID, false, CosineEvidence.E5).threshold());
    }
}
