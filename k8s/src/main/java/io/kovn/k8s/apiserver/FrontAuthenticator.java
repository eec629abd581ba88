package io.kovn.k8s.apiserver;

import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Authenticates one request the way kube-apiserver's x509 and static-token authenticators do (pure: the TLS
 * layer has already verified the chain against the client CA, and the clock comes in as a value).
 *
 * <p>A client certificate names the user (CN) and groups (O). It is checked for validity at every request,
 * not only at the handshake: a kept-alive connection must stop authenticating once its certificate expires,
 * which is why clients open new connections when their certificate rotates. Without a usable certificate, a
 * bearer token from the token table authenticates.
 */
final class FrontAuthenticator {
    private static final String BEARER = "Bearer ";

    private final Map<String, ClientIdentity> tokens;

    FrontAuthenticator(Map<String, ClientIdentity> tokens) {
        this.tokens = Map.copyOf(tokens);
    }

    /** How a request authenticated: the identity and, for a certificate, the certificate itself. */
    record Authenticated(ClientIdentity identity, Optional<X509Certificate> certificate) {}

    /**
     * @param verifiedChain the peer's certificate chain as the TLS layer verified it (leaf first), empty when
     *     the client sent none
     * @param authorization the Authorization header, or null
     */
    Optional<Authenticated> authenticate(List<X509Certificate> verifiedChain, String authorization, Instant now) {
        if (!verifiedChain.isEmpty()) {
            X509Certificate leaf = verifiedChain.getFirst();
            if (validAt(leaf, now)) {
                Optional<ClientIdentity> identity = ClientIdentity.fromCertificate(leaf);
                if (identity.isPresent()) {
                    return Optional.of(new Authenticated(identity.get(), Optional.of(leaf)));
                }
            }
        }
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            ClientIdentity identity = tokens.get(authorization.substring(BEARER.length()).strip());
            if (identity != null) {
                return Optional.of(new Authenticated(identity, Optional.empty()));
            }
        }
        return Optional.empty();
    }

    private static boolean validAt(X509Certificate certificate, Instant now) {
        try {
            certificate.checkValidity(Date.from(now));
            return true;
        } catch (CertificateExpiredException | CertificateNotYetValidException e) {
            return false;
        }
    }
}
