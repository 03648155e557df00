package io.ragsearch.embed.unigram;

import io.ragsearch.embed.PairTokenizer;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import java.util.Arrays;
import java.util.Set;

/**
 * A SentencePiece Unigram tokenizer read from a Hugging Face tokenizer.json (XLM-R and the
 * multilingual e5 models): the ids are the ones the Rust library gives, for a fraction of its
 * memory (docs/models.md). The steps, in the library's order: added tokens are cut out of the raw
 * text; each remaining segment is normalised, split into words by {@link Metaspace} and each word
 * cut into pieces by the {@link UnigramModel}; the pieces are truncated so that, with the
 * template's special tokens added, at most {@code maxLength} remain. Truncation keeps the start
 * of the text and there is no padding (the embedder pads a batch itself). A pair (a
 * cross-encoder's query and passage) is laid out by the post-processor's pair template, each text
 * encoded on its own as the library encodes it, and cut on the passage side
 * ({@link PairTruncation}). Safe for concurrent use.
 */
public final class UnigramTokenizer implements TextTokenizer, PairTokenizer {

    private final AddedTokens added;
    private final NormalizeStep normalizer;
    private final Metaspace metaspace;
    private final UnigramModel model;
    private final Template template;
    /** Null when the post-processor lays out single texts only. */
    private final Template pairTemplate;
    private final int maxLength;

    UnigramTokenizer(AddedTokens added, NormalizeStep normalizer, Metaspace metaspace, UnigramModel model,
                     Template template, Template pairTemplate, int maxLength) {
        if (maxLength <= template.added()) {
            throw new IllegalArgumentException("maximum length " + maxLength + " leaves no room beside the "
                    + template.added() + " special tokens");
        }
        this.added = added;
        this.normalizer = normalizer;
        this.metaspace = metaspace;
        this.model = model;
        this.template = template;
        this.pairTemplate = pairTemplate;
        this.maxLength = maxLength;
    }

    @Override
    public TokenEncoding encode(String text) {
        return encode(text, true);
    }

    @Override
    public TokenEncoding encodeContent(String text) {
        return encode(text, false);
    }

    @Override
    public Set<Long> unknownIds() {
        return Set.of((long) model.unknownId());
    }

    /** Pieces in the vocabulary and nodes in its trie: what this tokenizer holds. */
    public String describe() {
        return model.vocabularySize() + " pieces, " + model.trieNodes() + " trie nodes";
    }

    /** Whether tokenizer.json's post-processor lays out pairs (TemplateProcessing may define "single" alone). */
    public boolean encodesPairs() {
        return pairTemplate != null;
    }

    @Override
    public TokenEncoding encodePair(String first, String second) {
        if (pairTemplate == null) {
            throw new IllegalStateException("this tokenizer.json's post-processor has no pair template");
        }
        if (maxLength <= pairTemplate.added()) {
            throw new IllegalArgumentException("maximum length " + maxLength + " leaves no room beside the "
                    + pairTemplate.added() + " special tokens of a pair");
        }
        TokenBuffer a = pieces(first);
        TokenBuffer b = pieces(second);
        int kept = PairTruncation.secondKept(a.size(), b.size(), maxLength - pairTemplate.added());
        return build(new TokenBuffer[] {a, b}, new int[] {a.size(), kept}, pairTemplate);
    }

    private TokenEncoding encode(String text, boolean special) {
        TokenBuffer content = pieces(text);
        int kept = Math.min(content.size(), special ? maxLength - template.added() : maxLength);
        return build(new TokenBuffer[] {content}, new int[] {kept}, special ? template : Template.NONE);
    }

    /** One text's pieces, untruncated. */
    private TokenBuffer pieces(String text) {
        TokenBuffer content = new TokenBuffer();
        long[] word = {0};
        for (AddedTokens.Segment s : added.split(text)) {
            if (s.id() >= 0) {
                content.add(s.id(), s.content(), word[0]++);
                continue;
            }
            String normalized = normalizer.apply(text.substring(s.from(), s.to()));
            if (metaspace == null) {
                if (!normalized.isEmpty()) {
                    model.encode(normalized, word[0]++, content);
                }
                continue;
            }
            metaspace.words(normalized, s.from() == 0, w -> model.encode(w, word[0]++, content));
        }
        return content;
    }

    /** The template's parts in order, text {@code i} contributing its first {@code kept[i]} tokens. */
    private static TokenEncoding build(TokenBuffer[] texts, int[] kept, Template template) {
        int n = template.added() + Arrays.stream(kept).sum();
        long[] ids = new long[n];
        long[] types = new long[n];
        long[] mask = new long[n];
        String[] pieces = new String[n];
        long[] words = new long[n];
        Arrays.fill(mask, 1);
        int at = 0;
        for (Template.Part part : template.parts()) {
            if (part.isSequence()) {
                TokenBuffer content = texts[part.sequence()];
                for (int i = 0; i < kept[part.sequence()]; i++, at++) {
                    ids[at] = content.id(i);
                    types[at] = part.typeId();
                    pieces[at] = content.piece(i);
                    words[at] = content.word(i);
                }
            } else {
                for (int i = 0; i < part.ids().length; i++, at++) {
                    ids[at] = part.ids()[i];
                    types[at] = part.typeId();
                    pieces[at] = part.pieces()[i];
                    words[at] = -1;
                }
            }
        }
        return new TokenEncoding(ids, types, mask, pieces, words);
    }

    /** Nothing native to free: the vocabulary is ordinary heap arrays. */
    @Override
    public void close() {
    }
}
