package io.ragsearch.operator.podadmin;

/**
 * What a pod's /info says about its corpus database: connected or not, and since when not
 * (the server keeps answering from its last good index meanwhile, and stays ready).
 */
public record DatabaseState(boolean connected, String unreachableSince) {
}
