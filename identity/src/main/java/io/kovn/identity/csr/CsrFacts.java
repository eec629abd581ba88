package io.kovn.identity.csr;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestCondition;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestSpec;
import io.kovn.pki.CertificateRequests;
import io.kovn.pki.Subject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The facts of a CertificateSigningRequest the approval rules look at, read once from the API object so that the rules
 * stay a pure function of values.
 *
 * @param name metadata.name
 * @param signerName spec.signerName
 * @param username spec.username (set by the API server from the requester's credentials)
 * @param groups spec.groups
 * @param usages spec.usages
 * @param expirationSeconds spec.expirationSeconds, empty when absent
 * @param subject the subject of the PKCS#10 request, empty when it does not parse or verify
 * @param requestProblem why the request could not be read (empty text when it could)
 * @param approved an Approved condition is present
 * @param denied a Denied condition is present
 * @param failed a Failed condition is present
 * @param issued status.certificate is set
 */
public record CsrFacts(
        String name,
        String signerName,
        String username,
        List<String> groups,
        List<String> usages,
        Optional<Long> expirationSeconds,
        Optional<Subject> subject,
        String requestProblem,
        boolean approved,
        boolean denied,
        boolean failed,
        boolean issued) {

    public CsrFacts {
        groups = List.copyOf(groups);
        usages = List.copyOf(usages);
    }

    /** Reads the facts from a fabric8 CSR object (missing fields become empty values). */
    public static CsrFacts from(CertificateSigningRequest csr) {
        CertificateSigningRequestSpec spec =
                Objects.requireNonNullElseGet(csr.getSpec(), CertificateSigningRequestSpec::new);
        List<CertificateSigningRequestCondition> conditions =
                csr.getStatus() == null || csr.getStatus().getConditions() == null
                        ? List.of()
                        : csr.getStatus().getConditions();
        Optional<Subject> subject = Optional.empty();
        String problem = "";
        try {
            subject = Optional.of(
                    CertificateRequests.parse(decode(spec.getRequest())).subject());
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        return new CsrFacts(
                csr.getMetadata() == null
                        ? ""
                        : Objects.requireNonNullElse(csr.getMetadata().getName(), ""),
                Objects.requireNonNullElse(spec.getSignerName(), ""),
                Objects.requireNonNullElse(spec.getUsername(), ""),
                nonNull(spec.getGroups()),
                nonNull(spec.getUsages()),
                Optional.ofNullable(spec.getExpirationSeconds()).map(Integer::longValue),
                subject,
                problem,
                has(conditions, "Approved"),
                has(conditions, "Denied"),
                has(conditions, "Failed"),
                csr.getStatus() != null
                        && csr.getStatus().getCertificate() != null
                        && !csr.getStatus().getCertificate().isEmpty());
    }

    private static String decode(String base64) {
        if (base64 == null || base64.isEmpty()) {
            throw new IllegalArgumentException("spec.request is empty");
        }
        return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.US_ASCII);
    }

    private static boolean has(List<CertificateSigningRequestCondition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.getType()));
    }

    private static List<String> nonNull(List<String> list) {
        return list == null ? List.of() : list.stream().filter(Objects::nonNull).toList();
    }
}
