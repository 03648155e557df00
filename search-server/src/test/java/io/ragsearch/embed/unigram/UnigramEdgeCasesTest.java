package io.ragsearch.embed.unigram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.TokenEncoding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The texts where tokenizers part ways, each checked against the Rust library and for what it must give. */
class UnigramEdgeCasesTest {

    private static final long BOS = 0;
    private static final long EOS = 2;
    private static final long UNK = 3;

    private static ReferenceTokenizers tokenizers;

    @BeforeAll
    static void load() throws IOException {
        tokenizers = ReferenceTokenizers.builtin(null);
    }

    @AfterAll
    static void close() {
        tokenizers.close();
    }

    private static TokenEncoding ours(String text) {
        String diff = tokenizers.difference(text);
        assertNull(diff, () -> "«" + text.codePoints().mapToObj(c -> String.format("U+%04X", c)).toList() + "»: " + diff);
        return tokenizers.ours.encode(text);
    }

    @Test
    void emptyTextIsTheSpecialTokensAlone() {
        TokenEncoding e = ours("");
        assertArrayEquals(new long[] {BOS, EOS}, e.ids());
        assertArrayEquals(new long[] {-1, -1}, e.wordIds());
        assertArrayEquals(new long[] {1, 1}, e.attentionMask());
    }

    @Test
    void whitespaceAloneBecomesOneMark() {
        for (String text : List.of(" ", "   ", "\n", "\t \n", "\u3000", "\r\n")) {
            TokenEncoding e = ours(text);
            assertEquals(List.of("<s>", "\u2581", "</s>"), List.of(e.pieces()), Arrays.toString(text.toCharArray()));
        }
    }

    @Test
    void aFinalNewlineKeepsItsMarkAsTheRustLibraryDoes() {
        TokenEncoding e = ours("passage: 제1조(목적) 이 법은 근로조건의 기준을 정한다.\n");
        assertEquals("\u2581", e.pieces()[e.length() - 2], Arrays.toString(e.pieces()));
        ours("제1조\n\n");
        ours("  제1조  ");
    }

    @Test
    void unknownCharactersAreOneUnknownTokenPerRun() {
        // Two Cyrillic Extended-B letters the vocabulary has no piece for: one <unk> spelling both.
        TokenEncoding e = ours("a\uA640\uA641b");
        assertEquals(List.of("<s>", "\u2581a", "\uA640\uA641", "b", "</s>"), List.of(e.pieces()));
        assertEquals(1, Arrays.stream(e.ids()).filter(id -> id == UNK).count(), Arrays.toString(e.ids()));
        ours("\u0378");
        ours("\uE000\uE001");
        ours("x\uDB40\uDC01y");
        ours("𠀀𪚥 𝒳");
    }

    @Test
    void fullWidthFormsNormaliseToAscii() {
        TokenEncoding wide = ours("제１２３조 ＡＢＣ");
        TokenEncoding narrow = ours("제123조 ABC");
        assertArrayEquals(narrow.ids(), wide.ids());
        for (String text : List.of("ﬁ", "①②", "Ⅻ", "㈜", "㎏", "ｶﾀｶﾅ", "Ａ\u0301", "e\u0301", "ǅ")) {
            ours(text);
        }
    }

    @Test
    void conjoiningJamoMatchTheRustLibrary() {
        // XLM-R's compiled map does not compose conjoining jamo (NFKC would): they stay pieces of their own.
        TokenEncoding jamo = ours("\u1100\u1161\u11A8");
        TokenEncoding syllable = ours("각");
        assertEquals(3, syllable.length());
        assertTrue(jamo.length() > syllable.length(), Arrays.toString(jamo.pieces()));
        for (String text : List.of("가\u11A8", "\u1100\u1161", "\u1100", "\u11A8", "ᄀᄀᄀ", "\u3131\u314F", "한\u0301글")) {
            ours(text);
        }
    }

    @Test
    void emojiMatchTheRustLibrary() {
        for (String text : List.of("😀", "👍🏽 좋아요", "👨\u200D👩\u200D👧", "❤️", "🇰🇷🇯🇵", "#️⃣", "a\uFE0F", "☺")) {
            ours(text);
        }
    }

    @Test
    void controlCharactersAndNulMatchTheRustLibrary() {
        for (String text : List.of("a\u0000b", "\u0000", "\u0001\u0007\u001F", "a\u200Bb", "\uFEFFx", "a\u00ADb",
                "x\u0085y", "\u2028\u2029", "a\u00A0b", "\u0600\u0661")) {
            ours(text);
        }
    }

    @Test
    void specialTokensInTheTextAreTakenAsSpecialTokens() {
        TokenEncoding e = ours("a <mask> b</s><s>");
        assertTrue(Arrays.stream(e.ids()).anyMatch(id -> id == 250001), Arrays.toString(e.pieces()));
        ours("<unk><pad>");
        ours("<s");
    }

    @Test
    void longTextIsCutToTheMaximumLengthKeepingItsStart() {
        StringBuilder b = new StringBuilder();
        List<String> sentences = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            sentences.add("제" + i + "조 사용자는 근로자에게 연차 유급휴가를 주어야 한다. ");
        }
        sentences.forEach(b::append);
        TokenEncoding e = ours(b.toString());
        int max = tokenizers.settings.maxSeqLen();
        assertEquals(max, e.length());
        assertEquals(BOS, e.ids()[0]);
        assertEquals(EOS, e.ids()[max - 1]);
        assertEquals(max, tokenizers.ours.encodeContent(b.toString()).length(), "without special tokens, max pieces");
        TokenEncoding start = ours(sentences.get(0).strip());
        assertArrayEquals(Arrays.copyOfRange(start.ids(), 1, start.length() - 1),
                Arrays.copyOfRange(e.ids(), 1, start.length() - 1), "truncation keeps the start");
    }
}
