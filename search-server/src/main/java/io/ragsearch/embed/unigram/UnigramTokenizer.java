package io.ragsearch.embed.unigram;

import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import java.util.Set;

/**
 * A SentencePiece Unigram tokenizer read from a Hugging Face tokenizer.json (XLM-R and the
 * multilingual e5 models): the ids are the ones the Rust library gives, for a fraction of its
 * memory (docs/models.md). The steps, in the library's order: added tokens are cut out of the raw
 * text; each remaining segment is normalised, split into words by {@link Metaspace} and each word
 * cut into pieces by the {@link UnigramModel}; the pieces are truncated so that, with the
 * template's special tokens added, at most {@code maxLength} remain. Truncation keeps the start
 * of the text and there is no padding (the embedder pads a batch itself). Safe for concurrent use.
 */
public final class UnigramTokenizer implements TextTokenizer {

    private final AddedTokens added;
    private final NormalizeStep normalizer;
    private final Metaspace metaspace;
    private final UnigramModel model;
    private final Template template;
    private final int maxLength;

    UnigramTokenizer(AddedTokens added, NormalizeStep normalizer, Metaspace metaspace, UnigramModel model,
                     Template template, int maxLength) {
        if (maxLength <= template.added()) {
            throw new IllegalArgumentException("maximum length " + maxLength + " leaves no room beside the "
                    + template.added() + " special tokens");
        }
        this.added = added;
        this.normalizer = normalizer;
        this.metaspace = metaspace;
        this.model = model;
        this.template = template;
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

    private TokenEncoding encode(String text, boolean special) {
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
        int kept = Math.min(content.size(), special ? maxLength - template.added() : maxLength);
        if (!special) {
            return build(content, kept, Template.NONE);
        }
        return build(content, kept, template);
    }

    private static TokenEncoding build(TokenBuffer content, int kept, Template template) {
        int n = kept + template.added();
        long[] ids = new long[n];
        long[] types = new long[n];
        long[] mask = new long[n];
        String[] pieces = new String[n];
        long[] words = new long[n];
        java.util.Arrays.fill(mask, 1);
        int at = 0;
        for (Template.Part part : template.parts()) {
            if (part.isSequence()) {
                for (int i = 0; i < kept; i++, at++) {
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
