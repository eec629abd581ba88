package io.kovn.identity.csr;

import io.kovn.pki.Subject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The approval checks for node-identity CSRs (specification 002), a pure function of {@link CsrFacts} and
 * {@link ApproverConfig}. CSRs of other signers or other subjects are left to other approvers; a CSR that is ours and
 * fails any check is denied, never left pending.
 */
public final class CsrRules {
    /** The signer whose CSRs this approver handles. */
    public static final String SIGNER = "kubernetes.io/kube-apiserver-client";
    /** The user name prefix of node identities (the certificate's CN). */
    public static final String NODE_USER_PREFIX = "system:ovn-node";
    /** The group every node identity belongs to (the certificate's O). */
    public static final String NODE_GROUP = "system:ovn-nodes";
    /** The requesters that may ask for a node certificate: node identities and kubelets. */
    public static final List<String> REQUESTER_PREFIXES = List.of("system:ovn-node", "system:node");
    /** Groups a requester may carry. */
    public static final Set<String> ALLOWED_GROUPS = Set.of("system:nodes", "system:ovn-nodes", "system:authenticated");
    /** Exactly these usages, no more, no fewer. */
    public static final Set<String> USAGES = Set.of("digital signature", "client auth");
    /** The longest certificate lifetime ever approved: 365 days. */
    public static final long MAX_EXPIRATION_SECONDS = 365L * 24 * 3600;

    private static final Pattern DNS1123_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private CsrRules() {}

    /** Decides one CSR. */
    public static CsrDecision decide(CsrFacts csr, ApproverConfig config) {
        if (!SIGNER.equals(csr.signerName())) {
            return new CsrDecision.Ignore("signer " + csr.signerName() + " is not " + SIGNER);
        }
        if (csr.approved() || csr.denied() || csr.failed() || csr.issued()) {
            return new CsrDecision.Ignore("already decided");
        }
        if (csr.subject().isEmpty()) {
            // Without a readable subject we can only tell it is ours from the requester.
            return csr.username().startsWith(NODE_USER_PREFIX + ":")
                    ? new CsrDecision.Deny("certificate request cannot be read: " + csr.requestProblem())
                    : new CsrDecision.Ignore("certificate request cannot be read");
        }
        Subject subject = csr.subject().get();
        if (subject.commonNames().stream().noneMatch(cn -> cn.startsWith(NODE_USER_PREFIX))) {
            return new CsrDecision.Ignore("CN is not a node identity");
        }
        String denial = firstProblem(csr, subject, config);
        return denial == null
                ? new CsrDecision.Approve("Auto approving node identity certificate for " + subject.commonName())
                : new CsrDecision.Deny(denial);
    }

    private static String firstProblem(CsrFacts csr, Subject subject, ApproverConfig config) {
        String node = nodeName(csr.username(), config);
        if (node == null) {
            return "requester " + quote(csr.username()) + " is not a node (expected prefix "
                    + String.join(" or ", prefixes(config)) + ")";
        }
        if (node.length() > 253 || !DNS1123_SUBDOMAIN.matcher(node).matches()) {
            return "node name " + quote(node) + " is not a DNS-1123 subdomain";
        }
        String expectedCn = NODE_USER_PREFIX + ":" + node;
        if (subject.commonNames().size() != 1 || !subject.commonName().equals(expectedCn)) {
            return "CN " + subject.commonNames() + " does not match the requesting node: expected " + quote(expectedCn);
        }
        if (!subject.organizations().equals(List.of(NODE_GROUP))) {
            return "organization " + subject.organizations() + " must be exactly [" + NODE_GROUP + "]";
        }
        if (csr.usages().size() != USAGES.size() || !new HashSet<>(csr.usages()).equals(USAGES)) {
            return "usages " + csr.usages() + " must be exactly [digital signature, client auth]";
        }
        for (String group : csr.groups()) {
            if (!ALLOWED_GROUPS.contains(group)) {
                return "group " + quote(group)
                        + " is not allowed (allowed: system:nodes, system:ovn-nodes, system:authenticated)";
            }
        }
        if (csr.expirationSeconds().isEmpty()) {
            return "expirationSeconds must be set";
        }
        long expiration = csr.expirationSeconds().get();
        long max =
                Math.min(MAX_EXPIRATION_SECONDS, config.maxExpirationSeconds().orElse(MAX_EXPIRATION_SECONDS));
        if (expiration <= 0 || expiration > max) {
            return "expirationSeconds " + expiration + " exceeds the maximum of " + max;
        }
        if (config.nodeNamePattern().isPresent()
                && !config.nodeNamePattern().get().matcher(node).matches()) {
            return "node name " + quote(node) + " does not match the configured pattern "
                    + config.nodeNamePattern().get();
        }
        return null;
    }

    /** The node name from spec.username, or null when the requester is not an allowed node user. */
    static String nodeName(String username, ApproverConfig config) {
        for (String prefix : prefixes(config)) {
            if (username.startsWith(prefix + ":")) {
                return username.substring(prefix.length() + 1);
            }
        }
        return null;
    }

    private static List<String> prefixes(ApproverConfig config) {
        return config.requesterPrefixes().isEmpty() ? REQUESTER_PREFIXES : config.requesterPrefixes();
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }
}
