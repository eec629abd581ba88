package io.kovn.policy.model;

/** ACL action column values kovn uses. Deny is always a silent {@code drop}, never {@code reject}. */
public enum AclAction {
    ALLOW("allow"),
    ALLOW_RELATED("allow-related"),
    DROP("drop"),
    PASS("pass");

    private final String ovsdbValue;

    AclAction(String ovsdbValue) {
        this.ovsdbValue = ovsdbValue;
    }

    /** The value of the ACL {@code action} column. */
    public String ovsdbValue() {
        return ovsdbValue;
    }
}
