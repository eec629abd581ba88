package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicyWarning;
import io.kovn.policy.model.ZoneCondition;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which condition a zone publishes for a translation's report: a refused rule never reads as ready. */
class PolicyStatusConditionTest {
    static final PolicyWarning DOMAINS = new PolicyWarning(
            PolicyWarning.DOMAIN_NAMES_NOT_SUPPORTED,
            "egress rule 0 (to-docs): domainNames kubernetes.io are not enforced");

    @Test
    void aPolicyWithOnlyOrdinaryWarningsIsReady() {
        PolicyReport report = new PolicyReport(
                PolicyRef.cnp("c"),
                List.of(new PolicyWarning(PolicyWarning.INVALID_CIDR, "x is not a CIDR")),
                Optional.empty());
        assertThat(PolicyStatus.condition(report, "z")).isEqualTo(ZoneCondition.succeeded("z"));
    }

    @Test
    void aDomainNamesRuleMakesTheConditionFalseNamingTheRule() {
        ZoneCondition c =
                PolicyStatus.condition(new PolicyReport(PolicyRef.cnp("c"), List.of(DOMAINS), Optional.empty()), "z");
        assertThat(c.type()).isEqualTo("Ready-In-Zone-z");
        assertThat(c.status()).isEqualTo("False");
        assertThat(c.reason()).isEqualTo("DomainNamesNotSupported");
        assertThat(c.message()).startsWith(DOMAINS.message()).endsWith("(the policy's other rules are programmed)");
    }

    @Test
    void aPolicyThatCouldNotBeProgrammedKeepsItsFailure() {
        PolicyReport report = new PolicyReport(PolicyRef.cnp("c"), List.of(DOMAINS), Optional.of("no tier"));
        assertThat(PolicyStatus.condition(report, "z")).isEqualTo(ZoneCondition.failed("z", "no tier"));
    }
}
