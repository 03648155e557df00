package io.ragsearch.embed.unigram;

import java.util.List;

/**
 * The post-processor for a single text: special tokens around the text's tokens, each with its
 * type id (TemplateProcessing's "single", or RobertaProcessing's {@code <s> … </s>}).
 */
record Template(List<Part> parts) {

    /** The text's tokens ({@code ids} null) or a special token's ids and spellings. */
    record Part(int typeId, int[] ids, String[] pieces) {

        boolean isSequence() {
            return ids == null;
        }
    }

    static final Template NONE = new Template(List.of(new Part(0, null, null)));

    Template {
        parts = List.copyOf(parts);
        if (parts.stream().filter(Part::isSequence).count() != 1) {
            throw new IllegalArgumentException("a single-text template needs the text exactly once");
        }
    }

    /** How many special tokens the template adds. */
    int added() {
        return parts.stream().filter(p -> !p.isSequence()).mapToInt(p -> p.ids().length).sum();
    }
}
