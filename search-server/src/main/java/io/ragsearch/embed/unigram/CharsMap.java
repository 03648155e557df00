package io.ragsearch.embed.unigram;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * SentencePiece's precompiled normalisation map (tokenizer.json's {@code precompiled_charsmap}):
 * a little-endian u32 giving the size in bytes of a darts-clone double-array trie, the trie's
 * 32-bit units, then the replacement strings, each ending with a NUL byte. A trie key is the
 * UTF-8 of a character or character sequence; its value is the offset of the replacement.
 *
 * <p>A darts-clone unit packs: bit 8 "has a leaf child", bits 10.. the offset to the children
 * (shifted left by 8 more when bit 9 is set), the low byte the label of the edge into the unit
 * (with bit 31 set on leaf units, so a leaf never matches a label), and on a leaf unit bits 0..30
 * the value. Walking byte {@code c} from position {@code p}: {@code p ^= offset(unit(p)) ^ c}.
 */
final class CharsMap {

    private final int[] units;
    private final byte[] replacements;

    private CharsMap(int[] units, byte[] replacements) {
        this.units = units;
        this.replacements = replacements;
    }

    static CharsMap parse(byte[] blob) {
        if (blob.length < 4) {
            throw new IllegalArgumentException("precompiled_charsmap is " + blob.length + " bytes: too short for its header");
        }
        ByteBuffer in = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN);
        long trieBytes = Integer.toUnsignedLong(in.getInt());
        if (trieBytes % 4 != 0 || trieBytes == 0 || trieBytes > blob.length - 4L) {
            throw new IllegalArgumentException("precompiled_charsmap declares a trie of " + trieBytes
                    + " bytes in a blob of " + blob.length);
        }
        int[] units = new int[(int) (trieBytes / 4)];
        in.asIntBuffer().get(units);
        byte[] replacements = new byte[blob.length - 4 - (int) trieBytes];
        System.arraycopy(blob, 4 + (int) trieBytes, replacements, 0, replacements.length);
        return new CharsMap(units, replacements);
    }

    /**
     * The replacement of the shortest key that begins {@code text[from, to)} (as UTF-8), or null
     * when no key does. Like SentencePiece's normaliser as the Rust tokenizers apply it, the
     * search stops at a NUL byte.
     */
    String lookup(CharSequence text, int from, int to) {
        int pos = offset(units[0]);
        byte[] utf8 = new byte[4];
        for (int i = from; i < to; ) {
            int cp = Character.codePointAt(text, i);
            i += Character.charCount(cp);
            int n = Utf8.encode(cp, utf8);
            for (int b = 0; b < n; b++) {
                int c = utf8[b] & 0xFF;
                if (c == 0) {
                    return null;
                }
                int p = pos ^ c;
                if (p >= units.length || label(units[p]) != c) {
                    return null;
                }
                int unit = units[p];
                pos = p ^ offset(unit);
                if (hasLeaf(unit)) {
                    return replacement(units[pos] & 0x7FFF_FFFF);
                }
            }
        }
        return null;
    }

    private String replacement(int offset) {
        if (offset >= replacements.length) {
            throw new IllegalStateException("precompiled_charsmap points past its strings (" + offset + ")");
        }
        int end = offset;
        while (end < replacements.length && replacements[end] != 0) {
            end++;
        }
        return new String(replacements, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static int offset(int unit) {
        return (unit >>> 10) << ((unit & (1 << 9)) >>> 6);
    }

    private static int label(int unit) {
        return unit & ((1 << 31) | 0xFF);
    }

    private static boolean hasLeaf(int unit) {
        return ((unit >>> 8) & 1) == 1;
    }
}
