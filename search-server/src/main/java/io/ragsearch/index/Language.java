package io.ragsearch.index;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import java.util.Locale;

/** The analyzer family of a project. {@code detect} picks Korean when Hangul is a fifth of the letters. */
public enum Language {
    KOREAN, ENGLISH;

    /** Enough text to be sure of the script without reading a large corpus twice. */
    private static final int SAMPLE_CHARS = 200_000;
    private static final double HANGUL_SHARE_FOR_KOREAN = 0.2;

    public static Language parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "ko", "korean" -> KOREAN;
            case "en", "english" -> ENGLISH;
            default -> throw new IllegalArgumentException("unknown language '" + value + "' (use ko, en or auto)");
        };
    }

    public static Language detect(Corpus corpus) {
        long letters = 0;
        long hangul = 0;
        long seen = 0;
        outer:
        for (Document d : corpus.documents()) {
            for (Article a : d.articles()) {
                String text = a.searchableText();
                for (int i = 0; i < text.length(); i++) {
                    char c = text.charAt(i);
                    if (Character.isLetter(c)) {
                        letters++;
                        if (c >= '\uAC00' && c <= '\uD7A3') {
                            hangul++;
                        }
                    }
                }
                seen += text.length();
                if (seen > SAMPLE_CHARS) {
                    break outer;
                }
            }
        }
        return letters > 0 && (double) hangul / letters >= HANGUL_SHARE_FOR_KOREAN ? KOREAN : ENGLISH;
    }
}
