package io.kovn.identity.csr;

/** What the approver does with one CertificateSigningRequest. */
public sealed interface CsrDecision {
    /** Not a node-identity CSR, or already decided: leave it alone. */
    record Ignore(String why) implements CsrDecision {}

    /** Approve with reason {@code AutoApproved}. */
    record Approve(String message) implements CsrDecision {}

    /** Deny with reason {@code CSRDenied}; the message says which check failed. */
    record Deny(String message) implements CsrDecision {}
}
