package io.ragsearch.contract;

import io.ragsearch.contract.calibration.CalibrationJson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassConstantsTest {

    @Test
    void readsTheNamesAClassRefersTo() throws IOException {
        byte[] bytes;
        try (InputStream in = CalibrationJson.class.getResourceAsStream("CalibrationJson.class")) {
            bytes = in.readAllBytes();
        }
        List<String> entries = ClassConstants.utf8Entries(bytes);
        assertTrue(entries.contains("io/ragsearch/contract/json/JsonReader"), entries.toString());
        assertTrue(entries.stream().anyMatch(e -> e.contains("Ljava/util/Map;")), "descriptors too");
        assertThrows(IllegalArgumentException.class, () -> ClassConstants.utf8Entries(new byte[] {1, 2, 3, 4, 0, 0, 0, 0, 0, 1}));
    }
}
