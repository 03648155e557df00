package io.ragsearch.embed.unigram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.EmbeddingSettings;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import io.ragsearch.embed.Tokenizers;
import io.ragsearch.server.SettingsResolver;
import java.io.IOException;
import java.util.Arrays;

/**
 * The built-in multilingual model's real tokenizer.json, read twice: by our Unigram tokenizer and
 * by DJL's binding of the Rust library (the reference: the model was trained and has been served
 * with the Rust library's ids). Installed by scripts/model/fetch-e5.sh, as the test command does.
 */
final class ReferenceTokenizers implements AutoCloseable {

    final EmbeddingSettings settings;
    final UnigramTokenizer ours;
    final TextTokenizer reference;

    private ReferenceTokenizers(EmbeddingSettings settings, UnigramTokenizer ours, TextTokenizer reference) {
        this.settings = settings;
        this.ours = ours;
        this.reference = reference;
    }

    /** Both, truncating at maxLength (the embedder's own length when null). */
    static ReferenceTokenizers builtin(Integer maxLength) throws IOException {
        EmbeddingModel model = builtinModel();
        byte[] json = model.files().readTokenizer();
        int max = maxLength != null ? maxLength : model.settings().maxSeqLen();
        UnigramTokenizer ours = assertInstanceOf(UnigramTokenizer.class, Tokenizers.fromJson(json, max),
                "the built-in model's Unigram tokenizer.json is read by our own tokenizer");
        return new ReferenceTokenizers(model.settings(), ours, Tokenizers.djl(json, max));
    }

    /** The built-in multilingual model: its tokenizer.json is XLM-R's (the large rerank stand-in carries a copy). */
    static EmbeddingModel builtinModel() {
        EmbeddingModel model = SettingsResolver.defaultEmbedding(ServerEnvironment.read(System.getenv()));
        assertEquals(ModelFiles.BUILTIN_E5, model.builtin(),
                "the built-in multilingual model is not installed: run scripts/model/fetch-e5.sh (the test command does)");
        return model;
    }

    /** Null when both give the same ids, type ids, mask, pieces and word ids; else what differs. */
    String difference(String text) {
        TokenEncoding a = ours.encode(text);
        TokenEncoding b = reference.encode(text);
        if (!Arrays.equals(a.ids(), b.ids())) {
            return "ids differ\n ours: " + Arrays.toString(a.pieces()) + " " + Arrays.toString(a.ids())
                    + "\n rust: " + Arrays.toString(b.pieces()) + " " + Arrays.toString(b.ids());
        }
        if (!Arrays.equals(a.typeIds(), b.typeIds()) || !Arrays.equals(a.attentionMask(), b.attentionMask())) {
            return "type ids or attention mask differ";
        }
        if (!Arrays.equals(a.pieces(), b.pieces())) {
            return "pieces differ\n ours: " + Arrays.toString(a.pieces()) + "\n rust: " + Arrays.toString(b.pieces());
        }
        if (!Arrays.equals(a.wordIds(), b.wordIds())) {
            return "word ids differ\n ours: " + Arrays.toString(a.wordIds()) + "\n rust: " + Arrays.toString(b.wordIds());
        }
        TokenEncoding c = ours.encodeContent(text);
        TokenEncoding d = reference.encodeContent(text);
        if (!Arrays.equals(c.ids(), d.ids()) || !Arrays.equals(c.wordIds(), d.wordIds())) {
            return "content-only ids differ\n ours: " + Arrays.toString(c.ids()) + "\n rust: " + Arrays.toString(d.ids());
        }
        return null;
    }

    @Override
    public void close() {
        ours.close();
        reference.close();
    }
}
