package io.kovn.policy.evaluator;

/** The precedence tiers, in evaluation order (the OVN ACL tier numbers of the translation). */
public enum Tier {
    /** AdminNetworkPolicy: by spec.priority (lower first), then rule order. */
    ADMIN(1, "AdminNetworkPolicy"),
    /** NetworkPolicy: a selected pod is isolated; some rule must allow. */
    NETWORK_POLICY(2, "NetworkPolicy"),
    /** BaselineAdminNetworkPolicy: only for pods no NetworkPolicy isolates in that direction. */
    BASELINE(3, "BaselineAdminNetworkPolicy");

    private final int number;
    private final String title;

    Tier(int number, String title) {
        this.number = number;
        this.title = title;
    }

    /** The OVN ACL tier (1, 2, 3). */
    public int number() {
        return number;
    }

    /** The kind of object the tier holds. */
    public String title() {
        return title;
    }
}
