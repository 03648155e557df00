package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Auth {
    public static final String TOKEN_KEY = "token";

    @Required
    @JsonPropertyDescription("Secret with key token: MCP clients send Authorization: Bearer <token>.")
    public SecretKeys bearerTokenSecretRef;
}
