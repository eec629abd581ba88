package io.kovn.policy.model;

/** A rule's direction, spelled as in external_ids ({@code direction=Ingress}) and ACL names. */
public enum PolicyDirection {
    INGRESS("Ingress"),
    EGRESS("Egress");

    private final String value;

    PolicyDirection(String value) {
        this.value = value;
    }

    /** {@code Ingress} or {@code Egress}. */
    public String value() {
        return value;
    }

    /** {@code ingress} or {@code egress}: as kovn's explanations (analyze, trace) write it. */
    public String word() {
        return this == INGRESS ? "ingress" : "egress";
    }

    /** Ingress ACLs filter traffic entering a pod ({@code to-lport}); egress ACLs traffic leaving one. */
    public AclDirection aclDirection() {
        return this == INGRESS ? AclDirection.TO_LPORT : AclDirection.FROM_LPORT;
    }

    /** {@code outport} for ingress (the pod is the destination), {@code inport} for egress. */
    public String portField() {
        return this == INGRESS ? "outport" : "inport";
    }

    /** The peer's side of the packet: source for ingress, destination for egress. */
    public String peerSide() {
        return this == INGRESS ? "src" : "dst";
    }

    @Override
    public String toString() {
        return value;
    }
}
