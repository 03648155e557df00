package io.ragsearch.embed.unigram;

/**
 * Unicode's White_Space property (what Rust's char::is_whitespace tests): Java's
 * Character.isWhitespace leaves out no-break spaces and counts U+001C–U+001F.
 */
final class WhiteSpace {

    private WhiteSpace() {
    }

    static boolean is(int cp) {
        return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F
                || cp == 0x205F || cp == 0x3000;
    }
}
