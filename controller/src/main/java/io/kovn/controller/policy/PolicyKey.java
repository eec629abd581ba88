package io.kovn.controller.policy;

/**
 * What one reconcile of a zone's policies is about. Kubernetes changes queue the {@link #TRANSLATION}; a change the NB
 * monitor reports to a policy row queues that {@link Row} (drift, and the echo of our own writes, which then diffs to
 * nothing); a switch port that came, went or was made again queues the port groups that name it through
 * {@link SwitchPort}. Many keys taken together are reconciled as one transaction.
 */
sealed interface PolicyKey {
    /** The zone's translation: every policy against the shared selection index, then its changed rows. */
    Translation TRANSLATION = new Translation();
    /** Every policy row of the zone and the meter: at start, after a resync, and for a row of ours without an id. */
    Everything EVERYTHING = new Everything();
    /** The {@value NorthboundRows#METER} meter every policy ACL names. */
    Meter METER = new Meter();

    /** See {@link #TRANSLATION}. */
    record Translation() implements PolicyKey {
        @Override
        public String toString() {
            return "translation";
        }
    }

    /** See {@link #EVERYTHING}. */
    record Everything() implements PolicyKey {
        @Override
        public String toString() {
            return "every policy row";
        }
    }

    /** See {@link #METER}. */
    record Meter() implements PolicyKey {
        @Override
        public String toString() {
            return "meter " + NorthboundRows.METER;
        }
    }

    /**
     * One policy row by its table and {@code k8s.ovn.org/id}.
     *
     * @param table {@code ACL}, {@code Address_Set} or {@code Port_Group}
     * @param id the row's {@code k8s.ovn.org/id}
     */
    record Row(String table, String id) implements PolicyKey {
        @Override
        public String toString() {
            return table + " " + id;
        }
    }

    /**
     * The port groups whose members name this logical switch port.
     *
     * @param name the port's name
     */
    record SwitchPort(String name) implements PolicyKey {
        @Override
        public String toString() {
            return "switch port " + name;
        }
    }
}
