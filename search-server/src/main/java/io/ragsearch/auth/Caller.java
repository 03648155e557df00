package io.ragsearch.auth;

import io.ragsearch.search.ProjectScope;

/**
 * Who made a call and which projects it may use. The subject is what logs and metrics name (never
 * the token): the JWT's {@code sub}, or a fixed word where no token identifies anyone.
 */
public record Caller(String subject, ProjectScope scope) {

    /** Without authentication, with the static token, and over stdio: every project. */
    public static final Caller ANYONE = new Caller("-", ProjectScope.ALL);
    /** The static token identifies no one in particular: whoever holds it reads every project. */
    public static final Caller STATIC_TOKEN = new Caller("static-token", ProjectScope.ALL);

    /**
     * The server verifying itself in process (mode jwt): every project, since its checks file may
     * name any. Only code hands it out ({@code SearchServerApp}'s verification target); the auth
     * filter makes callers from verified tokens alone, so no request can become this one, whatever
     * its token's {@code sub} says.
     */
    public static final Caller VERIFIER = new Caller("ragsearch-verification", ProjectScope.ALL);

    /** The request attribute the auth filter leaves the caller in, for the MCP transports' context. */
    public static final String ATTRIBUTE = "io.ragsearch.caller";
}
