package io.ragsearch.embed.unigram;

import java.util.ArrayList;
import java.util.List;

/**
 * tokenizer.json's added tokens ({@code <s>}, {@code </s>}, {@code <unk>}, {@code <mask>}, …):
 * found in the raw text before anything else, leftmost and then longest first, each becoming its
 * own id; the text between them is tokenized on its own. A token marked lstrip/rstrip also takes
 * the whitespace on its left/right.
 */
final class AddedTokens {

    record Token(String content, int id, boolean lstrip, boolean rstrip) {
    }

    /** A piece of the text: an added token (id ≥ 0, its content) or text to tokenize (id -1). */
    record Segment(int from, int to, int id, String content) {
    }

    private final List<Token> tokens;
    /** Every token's first char: most positions are ruled out by one indexOf. */
    private final String firstChars;

    AddedTokens(List<Token> tokens) {
        this.tokens = List.copyOf(tokens);
        StringBuilder first = new StringBuilder();
        for (Token t : tokens) {
            if (t.content().isEmpty()) {
                throw new IllegalArgumentException("an added token with empty content (id " + t.id() + ")");
            }
            first.append(t.content().charAt(0));
        }
        this.firstChars = first.toString();
    }

    List<Segment> split(String text) {
        List<Segment> out = new ArrayList<>();
        int plainFrom = 0;
        int i = 0;
        while (i < text.length()) {
            Token match = longestAt(text, i);
            if (match == null) {
                i++;
                continue;
            }
            int start = i;
            int end = i + match.content().length();
            if (match.lstrip()) {
                while (start > plainFrom && WhiteSpace.is(text.codePointBefore(start))) {
                    start -= Character.charCount(text.codePointBefore(start));
                }
            }
            if (match.rstrip()) {
                while (end < text.length() && WhiteSpace.is(text.codePointAt(end))) {
                    end += Character.charCount(text.codePointAt(end));
                }
            }
            if (start > plainFrom) {
                out.add(new Segment(plainFrom, start, -1, null));
            }
            out.add(new Segment(start, end, match.id(), match.content()));
            plainFrom = end;
            i = end;
        }
        if (plainFrom < text.length()) {
            out.add(new Segment(plainFrom, text.length(), -1, null));
        }
        return out;
    }

    private Token longestAt(String text, int at) {
        if (firstChars.indexOf(text.charAt(at)) < 0) {
            return null;
        }
        Token best = null;
        for (Token t : tokens) {
            if (text.startsWith(t.content(), at) && (best == null || t.content().length() > best.content().length())) {
                best = t;
            }
        }
        return best;
    }
}
