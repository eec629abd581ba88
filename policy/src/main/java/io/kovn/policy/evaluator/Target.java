package io.kovn.policy.evaluator;

/**
 * An endpoint resolved against a compiled snapshot: a networked pod (by its index in the snapshot) or a bare IP.
 * Host-network pods resolve to their IP: they are never subjects or pod peers. An IP that belongs to a pod resolves to
 * that pod, as OVN sees it. Obtain from {@link PolicyEvaluator#resolve(Endpoint)}; resolve once and reuse for many
 * verdicts.
 *
 * @param label how to print the endpoint ({@code ns/pod} or the IP)
 * @param pod the pod's index in the compiled snapshot, or -1 if this is not a networked pod
 * @param ip the address matched against {@code networks}, {@code nodes} and ipBlock peers; may be null for a pod
 *     without an IP
 */
public record Target(String label, int pod, IpAddress ip) {

    /** Whether this is a networked pod (a possible subject). */
    public boolean isPod() {
        return pod >= 0;
    }

    @Override
    public String toString() {
        return label;
    }
}
