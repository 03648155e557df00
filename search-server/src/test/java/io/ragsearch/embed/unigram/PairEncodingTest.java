package io.ragsearch.embed.unigram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.PairTokenizer;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import io.ragsearch.embed.Tokenizers;
import io.ragsearch.embed.UnigramTokenizerJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The edges of pair encoding: the truncation rule itself, the pairs at the border of the maximum
 * length on XLM-R's real vocabulary (each against the Rust library), the other ways a
 * tokenizer.json lays out a pair, and what a file without a pair template gets.
 */
class PairEncodingTest {

    @Test
    void onlyTheSecondTextIsCutAndAPairThatCannotFitIsRefused() {
        assertEquals(10, PairTruncation.secondKept(3, 10, 20), "fits: nothing cut");
        assertEquals(10, PairTruncation.secondKept(10, 15, 20), "5 over: 5 from the second");
        assertEquals(1, PairTruncation.secondKept(19, 2, 20), "the first leaves one token");
        assertEquals(0, PairTruncation.secondKept(20, 0, 20), "an empty second that fits is no cut");
        assertThrows(IllegalArgumentException.class, () -> PairTruncation.secondKept(20, 1, 20),
                "the second would lose every token: the library refuses rather than cut the first");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PairTruncation.secondKept(25, 0, 20));
        assertTrue(e.getMessage().contains("25 tokens") && e.getMessage().contains("only the second text is cut"), e.getMessage());
    }

    @Test
    void pairsAtTheBorderOfTheMaximumLengthMatchTheRustLibrary() throws IOException {
        byte[] json = ReferenceTokenizers.builtinModel().files().readTokenizer();
        int max = 16;
        try (PairTokenizer ours = Tokenizers.pairsFromJson(json, max); PairTokenizer rust = Tokenizers.djlPairs(json, max)) {
            PairTokenizer[] both = {ours, rust};
            TokenEncoding empty = ours.encodePair("근로 시간", "");
            assertNull(PairParityTest.compare(both, "근로 시간", "").difference());
            assertEquals(List.of(0L, 2L, 2L, 2L), List.of(empty.ids()[0], empty.ids()[empty.length() - 3], empty.ids()[empty.length() - 2],
                    empty.ids()[empty.length() - 1]), "<s> A </s></s></s>: an empty passage keeps its separators");
            String tenWords = "a b c d e f g h i j";
            String twelveWords = tenWords + " k l";
            for (String[] pair : List.of(
                    new String[] {"", ""},
                    new String[] {"", "제1조(목적) 이 법은 근로조건의 기준을 정한다. 근로자는 연차 유급 휴가를 받는다."},
                    new String[] {tenWords + " k", ""},               // 11 + 4 specials: room for the empty second
                    new String[] {tenWords + " k", "x y z"},          // 11 leaves one token of the second
                    new String[] {tenWords, "x y z"},                 // 10 + 3 + 4 = 17: one token of the second cut
                    new String[] {"휴가", "   "},
                    new String[] {"</s> 근로", "<s>근로자는</s>"},     // special tokens spelled inside the texts
                    new String[] {"ｑｕｅｒｙ：　휴가", "passage:\n\n제２조\t휴가"})) {
                PairParityTest.Outcome o = PairParityTest.compare(both, pair[0], pair[1]);
                assertNull(o.difference(), () -> "«" + pair[0] + "» × «" + pair[1] + "»: " + o.difference());
                assertFalse(o.refused(), "«" + pair[0] + "» × «" + pair[1] + "» fits");
            }
            // 13 + 0, 12 + 1 and 14 + 3 over a room of 12: the second cannot give up enough tokens.
            for (String[] pair : List.of(new String[] {twelveWords + " m", ""}, new String[] {twelveWords, "x"},
                    new String[] {twelveWords + " m n", "x y z"})) {
                PairParityTest.Outcome o = PairParityTest.compare(both, pair[0], pair[1]);
                assertTrue(o.refused(), "«" + pair[0] + "» × «" + pair[1] + "» leaves the second no token: both refuse; " + o);
            }
        }
    }

    @Test
    void robertaProcessingAndNoPostProcessorLayOutPairsAsTheRustLibraryDoes() throws IOException {
        String roberta = """
                {"type":"RobertaProcessing","sep":["</s>",2],"cls":["<s>",0],"trim_offsets":true,"add_prefix_space":true}""";
        String bertTypes = """
                {"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},
                {"SpecialToken":{"id":"</s>","type_id":0}}],"pair":[{"SpecialToken":{"id":"<s>","type_id":0}},
                {"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"</s>","type_id":0}},{"Sequence":{"id":"B","type_id":1}},
                {"SpecialToken":{"id":"</s>","type_id":1}}],
                "special_tokens":{"<s>":{"id":"<s>","ids":[0],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[2],"tokens":["</s>"]}}}""";
        for (String processor : List.of(roberta, bertTypes, "null")) {
            byte[] json = withPostProcessor(processor);
            try (PairTokenizer ours = Tokenizers.pairsFromJson(json, 8); PairTokenizer rust = Tokenizers.djlPairs(json, 8)) {
                assertInstanceOf(UnigramTokenizer.class, ours, processor);
                PairTokenizer[] both = {ours, rust};
                for (String[] pair : List.of(new String[] {"근로 시간", "근로자는 연차 유급 휴가를 받는다"}, new String[] {"휴가", ""})) {
                    PairParityTest.Outcome o = PairParityTest.compare(both, pair[0], pair[1]);
                    assertNull(o.difference(), () -> processor + ": " + o.difference());
                }
            }
        }
        try (PairTokenizer bert = Tokenizers.pairsFromJson(withPostProcessor(bertTypes), 8)) {
            assertArrayEquals(new long[] {0, 0, 0, 0, 1, 1, 1, 1}, bert.encodePair("근로 시간", "근로자는 연차 유급 휴가를 받는다").typeIds(),
                    "<s> ▁근로 ▁시간 </s> ▁근로 자는 ▁연차 </s>: the passage and its separator carry type 1");
        }
    }

    @Test
    void aTemplateWithoutAPairWeReadIsNotOursForPairsButStillForSingleTexts() throws Exception {
        String single = """
                {"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"</s>","type_id":0}}""";
        String specials = """
                "special_tokens":{"<s>":{"id":"<s>","ids":[0],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[2],"tokens":["</s>"]}}""";
        // No pair at all, and a pair template naming text A alone (not two texts).
        for (String pair : List.of("[]", "[" + single + "]")) {
            byte[] json = withPostProcessor("{\"type\":\"TemplateProcessing\",\"single\":[" + single + "],\"pair\":" + pair + "," + specials + "}");
            UnigramTokenizer t = UnigramJson.read(json, 16);
            assertFalse(t.encodesPairs(), pair);
            assertThrows(IllegalStateException.class, () -> t.encodePair("a", "b"));
            try (TextTokenizer text = Tokenizers.fromJson(json, 16)) {
                assertInstanceOf(UnigramTokenizer.class, text, "single texts are still ours");
            }
        }
    }

    @Test
    void aMaximumLengthWithNoRoomBesideThePairsSpecialTokensIsAClearError() throws IOException {
        try (PairTokenizer t = Tokenizers.pairsFromJson(UnigramTokenizerJson.json().getBytes(StandardCharsets.UTF_8), 4)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.encodePair("근로", "휴가"));
            assertTrue(e.getMessage().contains("maximum length 4") && e.getMessage().contains("4 special tokens of a pair"), e.getMessage());
            assertEquals(List.of("<s>", "▁근로", "</s>"), List.of(((TextTokenizer) t).encode("근로").pieces()), "a single text still fits in 4");
        }
    }

    /** The test's tiny XLM-R style tokenizer.json with another post-processor (JSON text, "null" for none). */
    private static byte[] withPostProcessor(String processor) {
        String json = UnigramTokenizerJson.json();
        int from = json.indexOf("\"post_processor\":");
        int to = json.indexOf("\"decoder\":");
        assertTrue(from > 0 && to > from, "the test file has a post_processor before its decoder");
        return (json.substring(0, from) + "\"post_processor\":" + processor + ",\n" + json.substring(to)).getBytes(StandardCharsets.UTF_8);
    }
}
