package io.kovn.policy.model;

/**
 * The per-zone status condition of an ANP/BANP, {@code Ready-In-Zone-<zone>}, written by merge patch.
 *
 * @param type {@code Ready-In-Zone-<zone>}
 * @param status {@code True} or {@code False}
 * @param reason {@code SetupSucceeded} or {@code SetupFailed}
 * @param message {@code Setting up OVN DB plumbing was successful} or the error
 */
public record ZoneCondition(String type, String status, String reason, String message) {
    public static final String SUCCEEDED = "SetupSucceeded";
    public static final String FAILED = "SetupFailed";
    public static final String SUCCESS_MESSAGE = "Setting up OVN DB plumbing was successful";

    /** The condition type for {@code zone}. */
    public static String typeFor(String zone) {
        return "Ready-In-Zone-" + zone;
    }

    public static ZoneCondition succeeded(String zone) {
        return new ZoneCondition(typeFor(zone), "True", SUCCEEDED, SUCCESS_MESSAGE);
    }

    public static ZoneCondition failed(String zone, String error) {
        return new ZoneCondition(typeFor(zone), "False", FAILED, error);
    }
}
