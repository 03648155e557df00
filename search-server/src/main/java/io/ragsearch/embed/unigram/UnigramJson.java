package io.ragsearch.embed.unigram;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a Hugging Face tokenizer.json into a {@link UnigramTokenizer}, or says why it cannot: a
 * model that is not Unigram, or a normalizer, pre-tokenizer or post-processor this reader does not
 * implement (the caller then uses the Rust library, which implements all of them). The vocabulary
 * is streamed: a parsed tree of 250k [piece, score] pairs would take tens of MiB of heap, which
 * would stay committed after loading.
 */
public final class UnigramJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private UnigramJson() {
    }

    /** A tokenizer.json this reader does not handle, and why. */
    public static final class Unsupported extends Exception {
        Unsupported(String why) {
            super(why);
        }
    }

    /** Whether tokenizer.json describes a Unigram model, judged without reading the vocabulary. */
    public static boolean isUnigram(byte[] tokenizerJson) throws IOException {
        try (JsonParser p = openObject(tokenizerJson)) {
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (!field.equals("model")) {
                    p.skipChildren();
                    continue;
                }
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    return false;
                }
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    if (key.equals("type")) {
                        return "Unigram".equals(p.getValueAsString());
                    }
                    p.skipChildren();
                }
                return false;
            }
            return false;
        } catch (JacksonException e) {
            throw new IOException("tokenizer.json is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A parser standing on the document's opening brace. */
    private static JsonParser openObject(byte[] tokenizerJson) throws IOException {
        JsonParser p = JSON.createParser(tokenizerJson);
        if (p.nextToken() != JsonToken.START_OBJECT) {
            p.close();
            throw new IOException("tokenizer.json is not a JSON object");
        }
        return p;
    }

    public static UnigramTokenizer read(byte[] tokenizerJson, int maxLength) throws IOException, Unsupported {
        Map<String, JsonNode> parts = new HashMap<>();
        Vocabulary vocabulary = null;
        try (JsonParser p = openObject(tokenizerJson)) {
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("model")) {
                    vocabulary = readModel(p);
                } else {
                    parts.put(field, p.readValueAsTree());
                }
            }
        } catch (JacksonException e) {
            throw new IOException("tokenizer.json is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (vocabulary == null) {
            throw new IOException("tokenizer.json has no model");
        }
        UnigramModel model = vocabulary.model();
        return new UnigramTokenizer(addedTokens(parts.get("added_tokens")), normalizer(parts.get("normalizer")),
                metaspace(parts.get("pre_tokenizer")), model, template(parts.get("post_processor")),
                pairTemplate(parts.get("post_processor")), maxLength);
    }

    private record Vocabulary(String type, Integer unknownId, boolean byteFallback, PieceTrie pieces, double[] scores) {

        UnigramModel model() throws Unsupported, IOException {
            if (!"Unigram".equals(type)) {
                throw new Unsupported("model type " + type + " is not Unigram");
            }
            if (byteFallback) {
                throw new Unsupported("Unigram byte_fallback is not implemented here");
            }
            if (unknownId == null) {
                throw new Unsupported("a Unigram model without unk_id");
            }
            try {
                return new UnigramModel(pieces, scores, unknownId);
            } catch (IllegalArgumentException e) {
                throw new IOException("tokenizer.json: " + e.getMessage(), e);
            }
        }
    }

    private static Vocabulary readModel(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new IOException("tokenizer.json's model is not an object");
        }
        String type = null;
        Integer unknownId = null;
        boolean byteFallback = false;
        PieceTrie.Builder pieces = new PieceTrie.Builder();
        int count = 0;
        double[] scores = new double[1024];
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String key = p.currentName();
            JsonToken value = p.nextToken();
            switch (key) {
                case "type" -> type = p.getValueAsString();
                case "unk_id" -> unknownId = value == JsonToken.VALUE_NULL ? null : p.getIntValue();
                case "byte_fallback" -> byteFallback = value == JsonToken.VALUE_TRUE;
                case "vocab" -> {
                    if (value != JsonToken.START_ARRAY) {
                        // A WordPiece or BPE vocabulary is an object: not ours to read.
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.START_ARRAY) {
                        if (p.nextToken() != JsonToken.VALUE_STRING) {
                            throw new IOException("Unigram vocabulary entry " + count + " does not start with its piece");
                        }
                        String piece = p.getString();
                        JsonToken score = p.nextToken();
                        if (score != JsonToken.VALUE_NUMBER_FLOAT && score != JsonToken.VALUE_NUMBER_INT) {
                            throw new IOException("Unigram vocabulary entry " + count + " (" + piece + ") has no score");
                        }
                        if (count == scores.length) {
                            scores = Arrays.copyOf(scores, scores.length * 2);
                        }
                        // Parsed from the text, as the Rust library parses it into an f64.
                        scores[count] = Double.parseDouble(p.getString());
                        pieces.add(piece, count);
                        count++;
                        if (p.nextToken() != JsonToken.END_ARRAY) {
                            throw new IOException("Unigram vocabulary entry " + count + " has more than a piece and a score");
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        return new Vocabulary(type, unknownId, byteFallback, pieces.build(), Arrays.copyOf(scores, count));
    }

    private static AddedTokens addedTokens(JsonNode node) throws Unsupported {
        List<AddedTokens.Token> tokens = new ArrayList<>();
        if (node != null && !node.isNull()) {
            for (JsonNode t : node) {
                String content = t.path("content").asString();
                if (t.path("normalized").asBoolean(false) || t.path("single_word").asBoolean(false)) {
                    throw new Unsupported("added token " + content + " is normalized or single_word");
                }
                tokens.add(new AddedTokens.Token(content, t.path("id").asInt(), t.path("lstrip").asBoolean(false),
                        t.path("rstrip").asBoolean(false)));
            }
        }
        return new AddedTokens(tokens);
    }

    private static NormalizeStep normalizer(JsonNode node) throws Unsupported {
        if (node == null || node.isNull()) {
            return text -> text;
        }
        String type = node.path("type").asString();
        switch (type) {
            case "Sequence" -> {
                List<NormalizeStep> steps = new ArrayList<>();
                for (JsonNode n : node.path("normalizers")) {
                    steps.add(normalizer(n));
                }
                return text -> {
                    String out = text;
                    for (NormalizeStep s : steps) {
                        out = s.apply(out);
                    }
                    return out;
                };
            }
            case "Precompiled" -> {
                String blob = node.path("precompiled_charsmap").asString("");
                if (blob.isEmpty()) {
                    return text -> text;
                }
                try {
                    return new PrecompiledNormalizer(CharsMap.parse(Base64.getDecoder().decode(blob)));
                } catch (IllegalArgumentException e) {
                    throw new Unsupported("precompiled_charsmap unreadable: " + e.getMessage());
                }
            }
            case "Replace" -> {
                Pattern pattern = replacePattern(node.path("pattern"));
                String content = node.path("content").asString();
                return text -> pattern.matcher(text).replaceAll(java.util.regex.Matcher.quoteReplacement(content));
            }
            case "NFKC", "NFC", "NFD", "NFKD" -> {
                Normalizer.Form form = Normalizer.Form.valueOf(type);
                return text -> Normalizer.normalize(text, form);
            }
            default -> throw new Unsupported("normalizer " + type + " is not implemented here");
        }
    }

    private static Pattern replacePattern(JsonNode pattern) throws Unsupported {
        if (pattern.has("String")) {
            return Pattern.compile(Pattern.quote(pattern.get("String").asString()));
        }
        if (pattern.has("Regex")) {
            try {
                // Rust's \s, \w, \d are Unicode classes; Java's are ASCII unless told otherwise.
                return Pattern.compile(pattern.get("Regex").asString(), Pattern.UNICODE_CHARACTER_CLASS);
            } catch (PatternSyntaxException e) {
                throw new Unsupported("Replace pattern " + pattern.get("Regex").asString() + ": " + e.getDescription());
            }
        }
        throw new Unsupported("Replace pattern " + pattern + " is neither String nor Regex");
    }

    private static Metaspace metaspace(JsonNode node) throws Unsupported {
        if (node == null || node.isNull()) {
            return null;
        }
        String type = node.path("type").asString();
        if (!type.equals("Metaspace")) {
            throw new Unsupported("pre-tokenizer " + type + " is not implemented here");
        }
        String replacement = node.path("replacement").asString("\u2581");
        if (replacement.length() != 1) {
            throw new Unsupported("Metaspace replacement '" + replacement + "' is not one char");
        }
        Metaspace.Prepend prepend;
        if (node.has("prepend_scheme")) {
            prepend = switch (node.get("prepend_scheme").asString()) {
                case "always" -> Metaspace.Prepend.ALWAYS;
                case "first" -> Metaspace.Prepend.FIRST;
                case "never" -> Metaspace.Prepend.NEVER;
                default -> throw new Unsupported("Metaspace prepend_scheme " + node.get("prepend_scheme"));
            };
        } else {
            // The older spelling: add_prefix_space true meant "always".
            prepend = node.path("add_prefix_space").asBoolean(true) ? Metaspace.Prepend.ALWAYS : Metaspace.Prepend.NEVER;
        }
        return new Metaspace(replacement.charAt(0), prepend, node.path("split").asBoolean(true));
    }

    /** The post-processor's layout of one text. */
    private static Template template(JsonNode node) throws Unsupported {
        if (node == null || node.isNull()) {
            return Template.NONE;
        }
        String type = node.path("type").asString();
        switch (type) {
            case "TemplateProcessing" -> {
                return templateOf(node, "single", 1);
            }
            case "RobertaProcessing" -> {
                Template.Part cls = robertaToken(node.path("cls"));
                Template.Part sep = robertaToken(node.path("sep"));
                return new Template(List.of(cls, Template.Part.text(0, 0), sep));
            }
            default -> throw new Unsupported("post-processor " + type + " is not implemented here");
        }
    }

    /**
     * The post-processor's layout of two texts (a cross-encoder's query and passage), or null where
     * it has none we read: no post-processor (the texts follow each other, as the Rust library joins
     * them) is a layout; a TemplateProcessing without "pair", or with one we do not read, is not.
     */
    private static Template pairTemplate(JsonNode node) throws Unsupported {
        if (node == null || node.isNull()) {
            // The second text keeps the type id the Rust library encodes it with: 1.
            return new Template(List.of(Template.Part.text(0, 0), Template.Part.text(1, 1)));
        }
        String type = node.path("type").asString();
        switch (type) {
            case "TemplateProcessing" -> {
                JsonNode pair = node.path("pair");
                if (!pair.isArray() || pair.isEmpty()) {
                    return null;
                }
                try {
                    return templateOf(node, "pair", 2);
                } catch (Unsupported e) {
                    // Pairs then go to the Rust library; single texts (the embedder's) stay ours.
                    return null;
                }
            }
            case "RobertaProcessing" -> {
                // <s> A </s></s> B </s>, and no token types: RoBERTa-style models have none.
                Template.Part cls = robertaToken(node.path("cls"));
                Template.Part sep = robertaToken(node.path("sep"));
                return new Template(List.of(cls, Template.Part.text(0, 0), sep, sep, Template.Part.text(1, 0), sep));
            }
            default -> throw new Unsupported("post-processor " + type + " is not implemented here");
        }
    }

    /** TemplateProcessing's "single" or "pair": sequences A and B, and special tokens it defines. */
    private static Template templateOf(JsonNode node, String which, int texts) throws Unsupported {
        List<Template.Part> parts = new ArrayList<>();
        for (JsonNode item : node.path(which)) {
            if (item.has("Sequence")) {
                String id = item.get("Sequence").path("id").asString();
                int sequence = switch (id) {
                    case "A" -> 0;
                    case "B" -> 1;
                    default -> throw new Unsupported("template sequence " + id + " is neither A nor B");
                };
                parts.add(Template.Part.text(sequence, item.get("Sequence").path("type_id").asInt()));
            } else if (item.has("SpecialToken")) {
                String name = item.get("SpecialToken").path("id").asString();
                JsonNode special = node.path("special_tokens").path(name);
                if (special.isMissingNode()) {
                    throw new Unsupported("template names special token " + name + " it does not define");
                }
                int[] ids = new int[special.path("ids").size()];
                String[] pieces = new String[ids.length];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = special.path("ids").get(i).asInt();
                    pieces[i] = special.path("tokens").path(i).asString(name);
                }
                parts.add(Template.Part.special(item.get("SpecialToken").path("type_id").asInt(), ids, pieces));
            } else {
                throw new Unsupported("template item " + item + " is not implemented here");
            }
        }
        Template template;
        try {
            template = new Template(parts);
        } catch (IllegalArgumentException e) {
            throw new Unsupported("template " + which + ": " + e.getMessage());
        }
        if (template.texts() != texts) {
            throw new Unsupported("template " + which + " lays out " + template.texts() + " texts, not " + texts);
        }
        return template;
    }

    /** RobertaProcessing names a special token as [text, id]. */
    private static Template.Part robertaToken(JsonNode pair) throws Unsupported {
        if (!pair.isArray() || pair.size() != 2) {
            throw new Unsupported("RobertaProcessing token " + pair + " is not [text, id]");
        }
        return Template.Part.special(0, new int[] {pair.get(1).asInt()}, new String[] {pair.get(0).asString()});
    }
}
