package io.kovn.policy.model;

/** ACL direction column values. Ingress rules are {@code to-lport}, egress rules {@code from-lport}. */
public enum AclDirection {
    TO_LPORT("to-lport"),
    FROM_LPORT("from-lport");

    private final String ovsdbValue;

    AclDirection(String ovsdbValue) {
        this.ovsdbValue = ovsdbValue;
    }

    /** The value of the ACL {@code direction} column. */
    public String ovsdbValue() {
        return ovsdbValue;
    }
}
