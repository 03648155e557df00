package io.ragsearch.mcp;

import java.util.List;

/**
 * initialize params with a wrong kind of value below the top level (the black-box review of issue
 * 32: each reached the SDK and came back as HTTP 200, -32603 with Jackson's text and Java class
 * names), and params with every optional field well-formed. Shared by the rules' unit test and
 * the bad-input catalogue.
 */
final class InitializeShapes {

    /** Bad params and what the refusal must say (the field's path and the kind it needs). */
    record Bad(String params, String says) {

        String request(int id) {
            return InitializeShapes.request(id, params);
        }
    }

    private static final String CLIENT = "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}";

    static final List<Bad> BAD = List.of(
            caps("{\"roots\":\"yes\"}", "\"capabilities.roots\" must be an object, got a string"),
            caps("{\"roots\":5}", "\"capabilities.roots\" must be an object, got a number"),
            caps("{\"roots\":[true]}", "\"capabilities.roots\" must be an object, got an array"),
            caps("{\"roots\":{\"listChanged\":\"yes\"}}", "\"capabilities.roots.listChanged\" must be true or false, got a string"),
            caps("{\"roots\":{\"listChanged\":{}}}", "\"capabilities.roots.listChanged\" must be true or false, got an object"),
            caps("{\"sampling\":\"on\"}", "\"capabilities.sampling\" must be an object, got a string"),
            caps("{\"sampling\":[1]}", "\"capabilities.sampling\" must be an object, got an array"),
            caps("{\"elicitation\":7}", "\"capabilities.elicitation\" must be an object, got a number"),
            caps("{\"elicitation\":{\"form\":\"x\"}}", "\"capabilities.elicitation.form\" must be an object, got a string"),
            caps("{\"experimental\":\"x\"}", "\"capabilities.experimental\" must be an object, got a string"),
            caps("{\"experimental\":[1,2]}", "\"capabilities.experimental\" must be an object, got an array"),
            caps("{\"extensions\":{\"a\":5}}", "\"capabilities.extensions.a\" must be an object, got a number"),
            client("{\"name\":\"x\",\"version\":\"1\",\"icons\":\"x\"}", "\"clientInfo.icons\" must be an array, got a string"),
            client("{\"name\":\"x\",\"version\":\"1\",\"icons\":[5]}", "\"clientInfo.icons[0]\" must be an object, got a number"),
            client("{\"name\":\"x\",\"version\":\"1\",\"title\":{}}", "\"clientInfo.title\" must be a string, got an object"),
            client("{\"name\":\"x\",\"version\":\"1\",\"websiteUrl\":[\"a\"]}", "\"clientInfo.websiteUrl\" must be a string, got an array"));

    /** Every optional field present and well-formed: accepted. */
    static final List<String> GOOD = List.of(
            "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{},"
                    + "\"elicitation\":{\"form\":{}},\"experimental\":{\"x\":{\"y\":1}}}," + CLIENT + "}",
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\","
                    + "\"title\":\"X\",\"websiteUrl\":\"http://127.0.0.1/\",\"icons\":[{\"src\":\"http://127.0.0.1/i.png\"}]}}");

    static String request(int id, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":" + params + "}";
    }

    private static Bad caps(String capabilities, String says) {
        return new Bad("{\"protocolVersion\":\"2025-06-18\",\"capabilities\":" + capabilities + "," + CLIENT + "}", says);
    }

    private static Bad client(String clientInfo, String says) {
        return new Bad("{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":" + clientInfo + "}", says);
    }

    private InitializeShapes() {
    }
}
