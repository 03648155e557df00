package io.ragsearch.embed.unigram;

import java.util.List;

/**
 * A post-processor's layout: special tokens around the tokens of one text (TemplateProcessing's
 * "single", RobertaProcessing's {@code <s> A </s>}) or of two (its "pair", RobertaProcessing's
 * {@code <s> A </s></s> B </s>}), each part with its type id.
 */
record Template(List<Part> parts) {

    /** The tokens of text {@code sequence} (0 = A, 1 = B; {@code ids} null) or a special token's ids and spellings. */
    record Part(int typeId, int sequence, int[] ids, String[] pieces) {

        static Part text(int sequence, int typeId) {
            return new Part(typeId, sequence, null, null);
        }

        static Part special(int typeId, int[] ids, String[] pieces) {
            return new Part(typeId, -1, ids, pieces);
        }

        boolean isSequence() {
            return ids == null;
        }
    }

    static final Template NONE = new Template(List.of(Part.text(0, 0)));

    Template {
        parts = List.copyOf(parts);
        int texts = texts(parts);
        if (texts < 1 || texts > 2) {
            throw new IllegalArgumentException("a template lays out one text or two, not " + texts);
        }
        for (int s = 0; s < texts; s++) {
            int sequence = s;
            if (parts.stream().filter(p -> p.isSequence() && p.sequence() == sequence).count() != 1) {
                throw new IllegalArgumentException("a template needs each of its texts exactly once (text " + (char) ('A' + s) + ")");
            }
        }
    }

    private static int texts(List<Part> parts) {
        return parts.stream().filter(Part::isSequence).mapToInt(p -> p.sequence() + 1).max().orElse(0);
    }

    /** How many texts the template lays out: 1 (single) or 2 (pair). */
    int texts() {
        return texts(parts);
    }

    /** How many special tokens the template adds. */
    int added() {
        return parts.stream().filter(p -> !p.isSequence()).mapToInt(p -> p.ids().length).sum();
    }
}
