package io.ragsearch.operator.spec;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.naming.PodLayout;

import java.util.List;

/** spec.auth as the server configuration's auth section: what the operator renders and what its check runs the server's rules on. */
public final class AuthSection {
    private AuthSection() {
    }

    /**
     * Mode jwt as the server's auth section; with kubernetesKeys the keys are read with the pod's
     * projected token and CA (PodTemplate mounts them). Mode static is the environment's token alone:
     * its file stays as before, so an operator upgrade rolls no pod.
     */
    public static ServerSettings.Auth of(Auth a) {
        if (a == null || !"jwt".equals(a.mode)) {
            return null;
        }
        boolean kube = Boolean.TRUE.equals(a.kubernetesKeys);
        List<ServerSettings.Access> access = a.access == null ? null : a.access.stream().map(r -> ServerSettings.Access.EMPTY
                .withProjects(r.projects).withServiceAccounts(r.serviceAccounts).withGroups(r.groups).withSubjects(r.subjects)
                .withClaims(r.claims == null ? null : r.claims.stream().map(c -> new ServerSettings.ClaimMatch(c.name, c.value)).toList()))
                .toList();
        return ServerSettings.Auth.EMPTY.withMode("jwt").withIssuer(a.issuer).withAudiences(a.audiences).withJwksUrl(a.jwksUrl)
                .withCaFile(kube ? PodLayout.KUBE_API_DIR + "/" + PodLayout.KUBE_API_CA : null)
                .withTokenFile(kube ? PodLayout.KUBE_API_DIR + "/" + PodLayout.KUBE_API_TOKEN : null)
                .withAlgorithms(a.algorithms).withClockSkewSeconds(a.clockSkewSeconds).withGroupsClaim(a.groupsClaim)
                .withScopes(a.scopes).withResource(a.resource).withAccess(access);
    }

}
