package io.ragsearch.embed;

/**
 * One text's tokens. {@code pieces} are the tokens' texts as the vocabulary spells them; a
 * word id says which pre-tokenized word a token came from (-1 for special tokens).
 */
public record TokenEncoding(long[] ids, long[] typeIds, long[] attentionMask, String[] pieces, long[] wordIds) {

    public TokenEncoding {
        int n = ids.length;
        if (typeIds.length != n || attentionMask.length != n || pieces.length != n || wordIds.length != n) {
            throw new IllegalArgumentException("token arrays of different lengths");
        }
    }

    public int length() {
        return ids.length;
    }
}
