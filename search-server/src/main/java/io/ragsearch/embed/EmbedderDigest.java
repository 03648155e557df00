package io.ragsearch.embed;

/**
 * The identity of the vectors an embedder writes, which stored vectors (the vector cache, the
 * database's rows) are matched on: the model file's sha256, the tokenizer file's sha256 and
 * every setting that changes a passage vector, each named explicitly (not only where it differs
 * from a default, so a default changed in a later version is a new identity too):
 *
 * <pre>sha256:MODEL+tokenizer=sha256:TOKENIZER,pooling=mean,normalize=true,maxSeqLen=512,output=last_hidden_state,passagePrefix="passage: "</pre>
 *
 * The tokenizer is part of it because the same model fed other token ids gives other vectors:
 * a swapped tokenizer.json must neither write vectors under the genuine identity nor read the
 * genuine ones. The query prefix is not: it changes query vectors only, which are never stored.
 * The passage prefix comes last and is quoted with its quotes and backslashes escaped, so no
 * prefix can make two different settings read alike.
 */
final class EmbedderDigest {

    private EmbedderDigest() {
    }

    static String of(String modelDigest, String tokenizerDigest, EmbeddingSettings settings, String output) {
        String prefix = settings.passagePrefix().replace("\\", "\\\\").replace("\"", "\\\"");
        return modelDigest + "+tokenizer=" + tokenizerDigest
                + ",pooling=" + settings.pooling().wireName()
                + ",normalize=" + settings.normalize()
                + ",maxSeqLen=" + settings.maxSeqLen()
                + ",output=" + output
                + ",passagePrefix=\"" + prefix + "\"";
    }
}
