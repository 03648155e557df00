package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemasTest {

    @Test
    void everySchemaKeepsItsKeysInTheOrderWritten() {
        assertEquals(List.of("type", "description", "minimum", "maximum"),
                List.copyOf(Schemas.integer("how many", 1, 50).keySet()));
        assertEquals(List.of("type", "description"), List.copyOf(Schemas.string("a name").keySet()));
        assertEquals(List.of("type", "items"), List.copyOf(Schemas.array(Schemas.bool("on")).keySet()));
        Map<String, Object> closed = Schemas.closedObject(Schemas.props("z", Schemas.number("last"), "a", Schemas.string("first")),
                List.of("z"));
        assertEquals(List.of("type", "properties", "required", "additionalProperties"), List.copyOf(closed.keySet()));
        assertEquals(List.of("z", "a"), List.copyOf(((Map<?, ?>) closed.get("properties")).keySet()));
    }
}
