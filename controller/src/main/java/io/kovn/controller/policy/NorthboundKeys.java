package io.kovn.controller.policy;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.Meter;
import io.kovn.ovn.nb.MeterBand;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.diff.Owner;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Pure: the policy keys one NB update concerns (a resync is handled by the caller: every row).
 *
 * <ul>
 *   <li>a policy row of ours inserted, changed or deleted: its {@link PolicyKey.Row}, whoever did it (our own write's
 *       echo then diffs to nothing; anyone else's change is repaired); a row of ours without an id:
 *       {@link PolicyKey#EVERYTHING};
 *   <li>someone else's row in a policy table: the {@link PolicyKey#TRANSLATION} (it may have been in the way of a
 *       refused write, which the translation's reconcile tries again);
 *   <li>a switch port that came, went or was made again: the translation (the zone's ports are in its snapshot) and its
 *       {@link PolicyKey.SwitchPort} (port groups refer to ports by uuid);
 *   <li>a meter or meter band: the {@link PolicyKey#METER}.
 * </ul>
 */
final class NorthboundKeys {
    private NorthboundKeys() {}

    /**
     * @param update the applied update
     * @param owner the rows the policy reconcile owns
     */
    static Set<PolicyKey> of(CacheUpdate update, Owner owner) {
        Set<PolicyKey> keys = new LinkedHashSet<>();
        for (RowChange c : update.changes()) {
            String table = c.table();
            if (table.equals(LogicalSwitchPort.TABLE_NAME)) {
                keys.add(PolicyKey.TRANSLATION);
                for (Row r : c.rows()) {
                    if (r.get(LogicalSwitchPort.NAME) instanceof String name) {
                        keys.add(new PolicyKey.SwitchPort(name));
                    }
                }
            } else if (table.equals(Meter.TABLE_NAME) || table.equals(MeterBand.TABLE_NAME)) {
                keys.add(PolicyKey.METER);
            } else if (NorthboundRows.TABLES.contains(table)) {
                for (Row r : c.rows()) {
                    if (!owner.owns(r)) {
                        keys.add(PolicyKey.TRANSLATION);
                    } else if (r.stringMap(ObjectId.EXTERNAL_IDS_COLUMN).get(Owner.ID) instanceof String id) {
                        keys.add(new PolicyKey.Row(table, id));
                    } else {
                        keys.add(PolicyKey.EVERYTHING);
                    }
                }
            }
        }
        return keys;
    }
}
