package io.kovn.policy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.match.AclLogging;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * What the last full translation made each policy contribution from: enough to make one contribution again without
 * walking the others ({@link PodChangeTranslation}). Kept in the memo and filled anew by every full translation.
 */
final class TranslationPlan {
    /** An ANP or BANP as translated: its contribution's key, its ACL priorities and its memo inputs. */
    record Admin(List<Object> key, AdminPolicy policy, IntUnaryOperator aclPriority, int tier, List<Object> inputs) {}

    /** By contribution key ({@code ["anp", name]}, {@code ["banp", name]}). */
    private final Map<Object, Admin> byKey = new HashMap<>();
    /** By {@code [ownerType, name]}, as rule keys name their policy. */
    private final Map<Object, Admin> byOwner = new HashMap<>();
    /** The NetworkPolicies by namespace, in translation order. */
    final Map<String, List<NetworkPolicy>> networkPolicies = new HashMap<>();

    final Map<String, AclLogging> namespaceLogging = new HashMap<>();
    private boolean complete;

    /** A full translation starts: nothing recorded holds until it {@link #finish}es. */
    void clear() {
        complete = false;
        byKey.clear();
        byOwner.clear();
        networkPolicies.clear();
        namespaceLogging.clear();
    }

    /** The full translation finished: what it recorded holds. */
    void finish() {
        complete = true;
    }

    /** Whether a full translation recorded everything. */
    boolean complete() {
        return complete;
    }

    /** Records an ANP or BANP as translated. */
    Admin admin(List<Object> key, AdminPolicy policy, IntUnaryOperator aclPriority, int tier, List<Object> inputs) {
        Admin made = new Admin(key, policy, aclPriority, tier, inputs);
        byKey.put(key, made);
        byOwner.put(Arrays.asList(policy.ownerType(), policy.name()), made);
        return made;
    }

    /** The ANP or BANP of a contribution key, or null. */
    Admin admin(Object key) {
        return byKey.get(key);
    }

    /** The ANP or BANP a rule key ({@code [kind, ownerType, name, direction, index]}) belongs to, or null. */
    Admin ruleOwner(List<?> ruleKey) {
        return byOwner.get(Arrays.asList(ruleKey.get(1), ruleKey.get(2)));
    }
}
