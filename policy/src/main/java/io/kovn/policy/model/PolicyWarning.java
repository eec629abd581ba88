package io.kovn.policy.model;

/**
 * A problem with a policy's content, to be published as a Warning event on the policy.
 *
 * @param reason the event reason, e.g. {@value #DUPLICATE_PRIORITY}
 * @param message a human-readable message naming the rule
 */
public record PolicyWarning(String reason, String message) {
    /** Two or more ANPs share {@code spec.priority}; all are applied, their relative order is undefined. */
    public static final String DUPLICATE_PRIORITY = "ANPWithDuplicatePriority";
    /** A port's protocol is not TCP, UDP or SCTP; the port entry is ignored. */
    public static final String INVALID_PROTOCOL = "InvalidProtocol";
    /** A portRange has start &gt;= end; the port entry is ignored. */
    public static final String INVALID_PORT_RANGE = "InvalidPortRange";
    /** A namedPort is combined with networks or nodes peers, which have no named ports. */
    public static final String NAMED_PORT_WITH_IP_PEERS = "NamedPortWithNetworksOrNodesPeer";
    /** A peer of an unknown kind (none set, or domainNames): Allow rules match nothing, Deny/Pass rules drop all. */
    public static final String UNSUPPORTED_PEER = "UnsupportedPeer";
    /** The policy's rules did not fit into tier 1's ACL priority space; it is not programmed. */
    public static final String CANNOT_FIT = "ANPRulesCannotFit";
    /** The {@code k8s.ovn.org/acl-logging} annotation is not valid JSON; logging is off for the policy. */
    public static final String INVALID_ACL_LOGGING = "InvalidACLLoggingAnnotation";
    /**
     * A ClusterNetworkPolicy rule has a {@code domainNames} peer, which kovn does not enforce: the peer matches nothing
     * (an Accept rule through it accepts nothing; a Deny or Pass rule, which the API does not allow, drops all).
     */
    public static final String DOMAIN_NAMES_NOT_SUPPORTED = "DomainNamesNotSupported";
    /**
     * Two or more ClusterNetworkPolicies of one tier share {@code spec.priority}; all are applied, their relative order
     * is undefined (an ANP of that priority comes first: docs/network-policy.md).
     */
    public static final String CNP_DUPLICATE_PRIORITY = "CNPWithDuplicatePriority";
    /** A networks entry is not a CIDR; it is ignored. */
    public static final String INVALID_CIDR = "InvalidCIDR";
}
