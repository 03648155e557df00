package io.ragsearch.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;

/** Creates DJL HuggingFace tokenizers from tokenizer.json bytes; never touches the network. */
public final class Tokenizers {

    static {
        // DJL looks for hub artefacts only when asked to; offline makes that impossible by accident.
        System.setProperty("ai.djl.offline", "true");
    }

    private Tokenizers() {
    }

    public static HuggingFaceTokenizer fromJson(byte[] tokenizerJson, int maxLength) throws IOException {
        Map<String, String> options = Map.of(
                "truncation", "true",
                "padding", "false",
                "maxLength", Integer.toString(maxLength),
                "modelMaxLength", Integer.toString(maxLength));
        return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson), options);
    }
}
