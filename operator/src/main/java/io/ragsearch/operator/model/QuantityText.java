package io.ragsearch.operator.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;

import java.io.IOException;

/**
 * A quantity written as a number ({@code cpu: 2}, {@code memory: 1e9}: YAML and the API server
 * hand over numbers) kept as its plain decimal text, not Java's {@code 1.0E9}.
 */
public final class QuantityText extends StdScalarDeserializer<String> {
    public QuantityText() {
        super(String.class);
    }

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
            return p.getText();
        }
        if (p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getDecimalValue().stripTrailingZeros().toPlainString();
        }
        return _parseString(p, ctxt);
    }
}
