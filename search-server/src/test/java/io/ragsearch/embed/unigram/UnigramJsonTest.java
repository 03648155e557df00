package io.ragsearch.embed.unigram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.Tokenizers;
import io.ragsearch.embed.UnigramTokenizerJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which tokenizer.json files our reader takes, and what it says about the ones it cannot read. */
class UnigramJsonTest {

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aUnigramFileIsOursAndTheTemplateAndTruncationApply() throws IOException {
        try (TextTokenizer t = Tokenizers.fromJson(bytes(UnigramTokenizerJson.json()), 4)) {
            assertInstanceOf(UnigramTokenizer.class, t);
            var e = t.encode("근로자는 연차 휴가");
            assertEquals(List.of("<s>", "▁근로", "자는", "</s>"), List.of(e.pieces()), "cut to 4 with <s> and </s>");
            assertEquals(List.of(-1L, 0L, 0L, -1L), java.util.Arrays.stream(e.wordIds()).boxed().toList());
        }
    }

    @Test
    void aUnigramFileUsingAPartWeDoNotImplementGoesToTheRustLibrary() throws IOException {
        String json = UnigramTokenizerJson.json().replace("\"byte_fallback\":false", "\"byte_fallback\":true");
        assertTrue(json.contains("\"byte_fallback\":true"), "the test file spells byte_fallback as expected");
        assertTrue(UnigramJson.isUnigram(bytes(json)));
        assertThrows(UnigramJson.Unsupported.class, () -> UnigramJson.read(bytes(json), 16));
        try (TextTokenizer t = Tokenizers.fromJson(bytes(json), 16)) {
            assertFalse(t instanceof UnigramTokenizer, t.getClass().getName());
            assertEquals(List.of("<s>", "▁근로", "자는", "</s>"), List.of(t.encode("근로자는").pieces()));
        }
    }

    @Test
    void brokenJsonIsAnErrorNamingTheFile() {
        IOException e = assertThrows(IOException.class, () -> Tokenizers.fromJson(bytes("{\"model\": {\"type\": \"Unig"), 16));
        assertTrue(e.getMessage().contains("tokenizer.json"), e.getMessage());
        IOException notObject = assertThrows(IOException.class, () -> UnigramJson.read(bytes("[1, 2]"), 16));
        assertTrue(notObject.getMessage().contains("not a JSON object"), notObject.getMessage());
    }

    @Test
    void aVocabularyEntryWithoutItsScoreIsAnError() {
        String json = UnigramTokenizerJson.json().replace("[\"<unk>\",0.0]", "[\"<unk>\"]");
        IOException e = assertThrows(IOException.class, () -> UnigramJson.read(bytes(json), 16));
        assertTrue(e.getMessage().contains("has no score"), e.getMessage());
    }
}
