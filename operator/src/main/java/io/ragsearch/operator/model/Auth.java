package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.ragsearch.contract.settings.Bounds;

import java.util.List;

/**
 * Who may call the MCP port: one static bearer token from a Secret (every project), or JWTs the
 * server checks itself (agents' Kubernetes ServiceAccount tokens or an OIDC issuer's), each caller
 * granted its projects by the access rules. docs/security.md, "Who may call /mcp".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "(has(self.mode) && self.mode == 'jwt') || has(self.bearerTokenSecretRef)",
        message = "mode static (the default) needs bearerTokenSecretRef")
@ValidationRule(value = "!has(self.mode) || self.mode != 'jwt' || (has(self.issuer) && has(self.audiences) && size(self.audiences) > 0"
        + " && has(self.access) && size(self.access) > 0 && !has(self.bearerTokenSecretRef))",
        message = "mode jwt needs issuer, audiences and access, and no bearerTokenSecretRef")
public class Auth {
    public static final String TOKEN_KEY = "token";

    @Pattern(Bounds.AUTH_MODE_REGEX)
    @JsonPropertyDescription("static (default): one bearer token from bearerTokenSecretRef, every project; "
            + "jwt: each caller's own JWT, checked against the issuer's keys, its projects granted by access.")
    public String mode;

    @JsonPropertyDescription("Mode static: Secret with key token; MCP clients send Authorization: Bearer <token>.")
    public SecretKeys bearerTokenSecretRef;

    @Pattern("^https://.+")
    @Size(max = SchemaBounds.URL)
    @JsonPropertyDescription("Mode jwt: the tokens' issuer (iss), exactly; for ServiceAccount tokens the cluster's "
            + "(kubectl get --raw /.well-known/openid-configuration), e.g. https://kubernetes.default.svc.cluster.local.")
    public String issuer;

    @Size(min = 1, max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("Mode jwt: a token's aud must hold one of these (the audience of the agents' projected tokens).")
    public List<@Size(min = 1, max = SchemaBounds.URL) String> audiences;

    @Pattern("^https://.+")
    @Size(max = SchemaBounds.URL)
    @JsonPropertyDescription("Mode jwt: where the issuer's keys are; default the jwks_uri of the issuer's OIDC discovery document.")
    public String jwksUrl;

    @JsonPropertyDescription("Mode jwt: fetch the keys from this cluster's API server with the pod's own ServiceAccount token and "
            + "the cluster CA (projected into the pod): what ServiceAccount tokens need unless discovery is open to anonymous callers.")
    public Boolean kubernetesKeys;

    @Size(max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("Mode jwt: signature algorithms accepted (default RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, "
            + "ES512); none and HS* are refused.")
    public List<@Pattern("^(RS|PS|ES)(256|384|512)$") String> algorithms;

    @Min(0)
    @Max(Bounds.CLOCK_SKEW_MAX_SECONDS)
    @JsonPropertyDescription("Mode jwt: slack on exp and nbf, in seconds (default 60).")
    public Integer clockSkewSeconds;

    @Size(min = 1, max = SchemaBounds.OBJECT_NAME)
    @JsonPropertyDescription("Mode jwt: the claim listing a token's groups (default groups).")
    public String groupsClaim;

    @Size(max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("Mode jwt: scopes every token must carry in scope or scp (default none).")
    public List<@Pattern("^[!#-\\[\\]-~]+$") String> scopes;

    @Pattern("^https?://.+")
    @Size(max = SchemaBounds.URL)
    @JsonPropertyDescription("Mode jwt: this service's resource identifier in its protected resource metadata (RFC 9728); "
            + "default the URL a request reached /mcp by.")
    public String resource;

    @Size(min = 1, max = SchemaBounds.PROJECTS)
    @JsonPropertyDescription("Mode jwt: who may use which projects; rules only grant, a caller no rule names is refused (403).")
    public List<AccessRule> access;
}
