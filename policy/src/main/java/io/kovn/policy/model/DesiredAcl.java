package io.kovn.policy.model;

import java.util.Map;
import java.util.Optional;

/**
 * An ACL row as it should be. ACLs have no name-based identity in OVN; {@link #id()} (the value of
 * {@code k8s.ovn.org/id}) is the key the diff layer matches rows by.
 *
 * @param id primary id, unique among kovn's ACLs
 * @param portGroup name of the port group that holds this ACL
 * @param name readable name ({@code ANP:<name>:<dir>:<index>}, {@code NP:...}), at most 63 characters
 * @param externalIds external_ids including the id
 * @param priority 0..32767, meaningful within the tier
 * @param direction to-lport for ingress rules, from-lport for egress rules
 * @param match the OVN match expression
 * @param action allow-related, allow, drop or pass
 * @param tier 1 AdminNetworkPolicy, 2 NetworkPolicy, 3 BaselineAdminNetworkPolicy
 * @param log whether ovn-controller logs packets hitting this ACL
 * @param severity log severity when {@code log}; empty otherwise
 * @param meter the meter for logged packets ({@code acl-logging})
 * @param options e.g. {@code apply-after-lb=true} for egress
 */
public record DesiredAcl(
        String id,
        String portGroup,
        String name,
        Map<String, String> externalIds,
        int priority,
        AclDirection direction,
        String match,
        AclAction action,
        int tier,
        boolean log,
        Optional<String> severity,
        String meter,
        Map<String, String> options) {

    /** The meter the reference names for ACL logging. */
    public static final String LOGGING_METER = "acl-logging";

    public DesiredAcl {
        externalIds = Map.copyOf(externalIds);
        options = Map.copyOf(options);
    }
}
