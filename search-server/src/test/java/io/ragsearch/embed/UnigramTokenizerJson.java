package io.ragsearch.embed;

import java.util.ArrayList;
import java.util.List;

/**
 * A tiny XLM-RoBERTa style {@code tokenizer.json}: a SentencePiece Unigram model ({@code <s>},
 * {@code <pad>}, {@code </s>}, {@code <unk>} at ids 0–3, pieces starting a word carry "▁"),
 * NFKC with whitespace runs made one space (as XLM-R's compiled normaliser does), Metaspace
 * pre-tokenization and the {@code <s> A </s></s> B </s>} template, no token types.
 * Its pieces cover the Korean sample of {@link #KOREAN_SAMPLE} (whole words, suffixes and
 * every syllable on its own), so a multilingual model's tokenizer is imitated in a few lines.
 */
public final class UnigramTokenizerJson {

    /** A two-article statute excerpt in the corpus format. */
    public static final String KOREAN_SAMPLE = """
            # 근로 규정

            ##### 제1조 (목적)
            이 규정은 근로 시간을 정한다.

            ##### 제2조 (연차 휴가)
            근로자는 연차 유급 휴가를 받는다.
            """;

    /** Whole words and suffixes: Viterbi prefers them to syllables (higher log probability). */
    private static final List<String> WORDS = List.of("▁근로", "자는", "▁연차", "▁휴가", "를", "▁유급", "▁받는다", "▁시간", "을",
            "▁규정", "은", "▁정한다", "▁이", "▁제", "조", "목적", "▁query", "▁passage", ":");
    /** Every syllable and sign of the sample alone, so no word of it is unknown. */
    private static final List<String> SINGLES = List.of("근", "로", "자", "는", "연", "차", "유", "급", "휴", "가", "받", "다",
            "이", "규", "정", "시", "간", "한", "제", "목", "적", "1", "2", "(", ")", ".", "#");

    private UnigramTokenizerJson() {
    }

    /** The pieces in id order: specials first, as in XLM-R. */
    public static List<String> vocabulary() {
        List<String> vocab = new ArrayList<>(List.of("<s>", "<pad>", "</s>", "<unk>", "▁"));
        vocab.addAll(WORDS);
        vocab.addAll(SINGLES);
        return vocab;
    }

    public static int id(String piece) {
        int id = vocabulary().indexOf(piece);
        if (id < 0) {
            throw new IllegalArgumentException("no piece " + piece);
        }
        return id;
    }

    public static String json() {
        return json(true);
    }

    /** @param hangul false: a vocabulary without any Hangul (every Korean word becomes {@code <unk>}) */
    public static String json(boolean hangul) {
        StringBuilder vocab = new StringBuilder();
        List<String> pieces = vocabulary();
        for (int i = 0; i < pieces.size(); i++) {
            String p = pieces.get(i);
            boolean special = i < 4;
            boolean korean = p.codePoints().anyMatch(c -> c >= 0xAC00 && c <= 0xD7A3);
            // Without Hangul the ids stay where they are (the model's table fits both) but hold placeholders.
            String shown = !hangul && korean ? "unused" + i : p;
            double score = special ? 0.0 : p.equals("▁") ? -4.0 : WORDS.contains(p) ? -3.0 : -6.0;
            vocab.append(i == 0 ? "" : ",").append("[\"").append(shown).append("\",").append(score).append(']');
        }
        String special = """
                {"SpecialToken":{"id":"%s","type_id":0}}""";
        String a = """
                {"Sequence":{"id":"A","type_id":0}}""";
        String b = """
                {"Sequence":{"id":"B","type_id":0}}""";
        String s = special.formatted("<s>");
        String e = special.formatted("</s>");
        return """
                {"version":"1.0","truncation":null,"padding":null,
                 "added_tokens":[%s],
                 "normalizer":{"type":"Sequence","normalizers":[{"type":"NFKC"},{"type":"Replace","pattern":{"Regex":"\\\\s+"},"content":" "}]},
                 "pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true},
                 "post_processor":{"type":"TemplateProcessing","single":[%s,%s,%s],"pair":[%s,%s,%s,%s,%s,%s],
                   "special_tokens":{"<s>":{"id":"<s>","ids":[0],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[2],"tokens":["</s>"]}}},
                 "decoder":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true},
                 "model":{"type":"Unigram","unk_id":3,"vocab":[%s],"byte_fallback":false}}
                """.formatted(addedTokens(), s, a, e, s, a, e, e, b, e, vocab);
    }

    private static String addedTokens() {
        List<String> specials = List.of("<s>", "<pad>", "</s>", "<unk>");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < specials.size(); i++) {
            out.append(i == 0 ? "" : ",").append("""
                    {"id":%d,"content":"%s","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}"""
                    .formatted(i, specials.get(i)));
        }
        return out.toString();
    }
}
