package io.kovn.controller.policy;

import io.kovn.ovsdb.diff.Plan;
import java.util.Map;
import java.util.Optional;

/** What writing one desired policy state to the zone's NB came to. */
sealed interface PolicyWrite {

    /**
     * The rows written are as desired.
     *
     * @param counts operations sent (all zero when they had converged)
     * @param perTable operations sent by table
     */
    record Written(Plan.Counts counts, Map<String, Integer> perTable) implements PolicyWrite {
        public Written {
            perTable = Map.copyOf(perTable);
        }
    }

    /** The cache was behind the server; plan again once it has caught up. */
    record Stale() implements PolicyWrite {}

    /**
     * Some or all policies could not be written.
     *
     * @param everything why nothing could be written (e.g. the NB is unreachable), if that is the case
     * @param perPolicy why the rows of these policy objects were refused; the others were written
     */
    record Failed(Optional<String> everything, Map<PolicyOwner, String> perPolicy) implements PolicyWrite {
        public Failed {
            perPolicy = Map.copyOf(perPolicy);
        }

        /** Why {@code owner}'s rows are not as desired, if they are not. */
        Optional<String> errorOf(PolicyOwner owner) {
            return everything.or(() -> Optional.ofNullable(perPolicy.get(owner)));
        }
    }
}
