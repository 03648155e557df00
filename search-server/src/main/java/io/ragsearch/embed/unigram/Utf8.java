package io.ragsearch.embed.unigram;

/** UTF-8 lengths and bytes of code points, without allocating: the tokenizer measures and walks bytes per character. */
final class Utf8 {

    private Utf8() {
    }

    static int length(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }

    static int length(CharSequence text, int from, int to) {
        int n = 0;
        for (int i = from; i < to; ) {
            int cp = Character.codePointAt(text, i);
            i += Character.charCount(cp);
            n += length(cp);
        }
        return n;
    }

    /** Writes cp's UTF-8 into out (4 bytes of room); returns how many bytes it took. */
    static int encode(int cp, byte[] out) {
        if (cp < 0x80) {
            out[0] = (byte) cp;
            return 1;
        }
        if (cp < 0x800) {
            out[0] = (byte) (0xC0 | (cp >> 6));
            out[1] = (byte) (0x80 | (cp & 0x3F));
            return 2;
        }
        if (cp < 0x10000) {
            out[0] = (byte) (0xE0 | (cp >> 12));
            out[1] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            out[2] = (byte) (0x80 | (cp & 0x3F));
            return 3;
        }
        out[0] = (byte) (0xF0 | (cp >> 18));
        out[1] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        out[2] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[3] = (byte) (0x80 | (cp & 0x3F));
        return 4;
    }
}
