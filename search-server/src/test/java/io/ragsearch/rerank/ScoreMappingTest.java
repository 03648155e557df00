package io.ragsearch.rerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** How a cross-encoder's logits become a relevance: each mapping, its default class, and what it refuses. */
class ScoreMappingTest {

    @Test
    void eachMappingReadsItsClass() {
        assertEquals(1 / (1 + Math.exp(-2)), ScoreMapping.AUTO.map(new float[] {2}), 1e-6, "one logit: sigmoid");
        assertEquals(1 / (1 + Math.exp(-3)), ScoreMapping.AUTO.map(new float[] {-1, 2}), 1e-6, "two: softmax, class 1");
        assertEquals(1 / (1 + Math.exp(1)), ScoreMapping.of("sigmoid", 0).map(new float[] {-1, 2}), 1e-6);
        assertEquals(1 / (1 + Math.exp(-1)), ScoreMapping.of("sigmoid", null).map(new float[] {-1, 1}), 1e-6, "class 1 of two");
        double z = Math.exp(1) + Math.exp(2) + Math.exp(3);
        assertEquals(Math.exp(1) / z, ScoreMapping.of("softmax", 0).map(new float[] {1, 2, 3}), 1e-6);
        assertEquals(Math.exp(2) / z, ScoreMapping.of("softmax", null).map(new float[] {1, 2, 3}), 1e-6, "class 1 by default");
        assertEquals(0.25f, ScoreMapping.of("none", null).map(new float[] {0.25f}), 0f);
        assertEquals(1f, ScoreMapping.of("none", 1).map(new float[] {0.5f, 7f}), 0f, "clamped to [0, 1]");
        assertEquals(0f, ScoreMapping.of("NONE", 0).map(new float[] {-3f}), 0f);
    }

    /** exp of a logit of 100 overflows a float: the softmax is taken relative to the largest. */
    @Test
    void largeLogitsStayFinite() {
        assertEquals(1 / (1 + Math.exp(-1)), ScoreMapping.of("softmax", 1).map(new float[] {100, 101}), 1e-6);
        assertEquals(1f, ScoreMapping.AUTO.map(new float[] {1000}), 0f);
    }

    @Test
    void whatAModelCannotBeReadAsIsRefused() {
        assertNull(ScoreMapping.AUTO.problem(1));
        assertNull(ScoreMapping.AUTO.problem(0), "outputs not declared: the first run checks");
        assertEquals("it outputs 3 classes; set scoreMapping (sigmoid, softmax or none) and positiveClass", ScoreMapping.AUTO.problem(3));
        assertEquals("scoreMapping softmax over one logit is always 1; use sigmoid (or none if the model applies its own)",
                ScoreMapping.of("softmax", null).problem(1));
        assertEquals("positiveClass 2 is beyond its 2 output(s) (0..1)", ScoreMapping.of("sigmoid", 2).problem(2));
        assertThrows(IllegalStateException.class, () -> ScoreMapping.of("sigmoid", 2).map(new float[] {1, 2}));
        IllegalArgumentException auto = assertThrows(IllegalArgumentException.class, () -> ScoreMapping.of("auto", 1));
        assertEquals("positiveClass needs scoreMapping sigmoid, softmax or none: auto reads class 1 of two itself", auto.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ScoreMapping.of("logit", null));
        assertEquals("softmax[0]", ScoreMapping.of("softmax", 0).describe());
        assertEquals("auto", ScoreMapping.AUTO.describe());
    }
}
