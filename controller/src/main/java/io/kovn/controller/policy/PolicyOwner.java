package io.kovn.controller.policy;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.policy.model.PolicyRef;
import java.util.Map;
import java.util.Optional;

/**
 * The rows of one policy object: owner type and {@code k8s.ovn.org/name} (an ANP or BANP name, {@code <ns>:<policy>}
 * for a NetworkPolicy, {@code <ns>} for a namespace's default deny).
 *
 * @param type the owner type
 * @param name the owner's name
 */
record PolicyOwner(String type, String name) {

    /** The owner of a row (by its external_ids), if it carries one. */
    static Optional<PolicyOwner> of(Map<?, ?> externalIds) {
        return externalIds.get(Owner.OWNER_TYPE) instanceof String t && externalIds.get(Owner.NAME) instanceof String n
                ? Optional.of(new PolicyOwner(t, n))
                : Optional.empty();
    }

    /** The owner of a current row. */
    static Optional<PolicyOwner> of(Row row) {
        return of(row.stringMap(ObjectId.EXTERNAL_IDS_COLUMN));
    }

    /** The diff owner of exactly these rows. */
    Owner owner(String controller) {
        return Owner.controller(controller).types(type).with(Owner.NAME, name);
    }

    /** The ANP/BANP this owner is, for its status condition. */
    Optional<PolicyRef> ref() {
        return switch (type) {
            case PolicyRef.ANP -> Optional.of(PolicyRef.anp(name));
            case PolicyRef.BANP -> Optional.of(PolicyRef.banp(name));
            default -> Optional.empty();
        };
    }
}
