package io.kovn.policy.convert;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * AdminNetworkPolicies and BaselineAdminNetworkPolicies rewritten as ClusterNetworkPolicies that give every flow the
 * same verdict; every other object passes unchanged.
 *
 * <ul>
 *   <li>An AdminNetworkPolicy becomes an {@code Admin} tier policy of the same name and {@code spec.priority}.
 *   <li>The BaselineAdminNetworkPolicy becomes a {@code Baseline} tier policy of the same name (the API makes it
 *       {@code default}) at priority {@value #BASELINE_PRIORITY}.
 *   <li>Rules keep their order and names; Allow becomes Accept; {@code ports} become {@code protocols} (see
 *       {@link RuleConverter} for rules longer than v1alpha2 allows).
 *   <li>Metadata keeps the name, labels and annotations (kovn's {@code k8s.ovn.org/acl-logging} among them), not
 *       kubectl's last-applied-configuration, the status or server-set fields.
 * </ul>
 *
 * <p>Refused, naming the object and field, with nothing converted: what v1alpha2 cannot express exactly (a portRange
 * with start &ge; end, which kovn ignores today; a protocol other than TCP/UDP/SCTP; a peer or port with no or several
 * fields; more than 25 rules per direction after splitting), two objects that would get the same ClusterNetworkPolicy
 * name or none at all, and an order kovn keeps today that ClusterNetworkPolicies alone cannot keep: an
 * AdminNetworkPolicy whose priority an Admin tier ClusterNetworkPolicy of the input shares (kovn puts the
 * AdminNetworkPolicy first), a BaselineAdminNetworkPolicy with a Baseline tier ClusterNetworkPolicy at
 * {@value #BASELINE_PRIORITY} in the input (kovn puts the BaselineAdminNetworkPolicy last).
 */
public final class ClusterNetworkPolicyConverter {
    /**
     * The Baseline tier priority of a converted BaselineAdminNetworkPolicy: the lowest precedence, which keeps it after
     * every ClusterNetworkPolicy of the Baseline tier as kovn orders a BaselineAdminNetworkPolicy today.
     */
    public static final int BASELINE_PRIORITY = 1000;

    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private ClusterNetworkPolicyConverter() {}

    /**
     * The outcome of one conversion.
     *
     * @param objects the input with every AdminNetworkPolicy and BaselineAdminNetworkPolicy replaced in place by its
     *     ClusterNetworkPolicy (empty when anything was refused)
     * @param refusals what cannot be converted exactly, one line each naming the object; empty = converted
     * @param notes what the user should know although the verdicts do not change (equal priorities)
     */
    public record Conversion(List<HasMetadata> objects, List<String> refusals, List<String> notes) {
        public Conversion {
            objects = List.copyOf(objects);
            refusals = List.copyOf(refusals);
            notes = List.copyOf(notes);
        }

        /** Whether everything was converted. */
        public boolean converted() {
            return refusals.isEmpty();
        }
    }

    /** Converts every AdminNetworkPolicy and BaselineAdminNetworkPolicy of {@code objects}. */
    public static Conversion convert(List<? extends HasMetadata> objects) {
        List<String> refusals = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<HasMetadata> out = new ArrayList<>();
        Map<String, String> names = new LinkedHashMap<>(); // CNP name -> the object that has it
        TreeMap<Integer, List<String>> anpPriorities = new TreeMap<>();
        TreeMap<Integer, List<String>> cnpPriorities = new TreeMap<>(); // Admin tier CNPs of the input
        List<String> lastBaseline = new ArrayList<>(); // Baseline tier CNPs of the input at BASELINE_PRIORITY
        for (HasMetadata o : objects) {
            if (o instanceof ClusterNetworkPolicy cnp) {
                claim(names, cnp.getMetadata().getName(), describe(cnp), refusals);
                ClusterNetworkPolicySpec spec = cnp.getSpec();
                if (spec != null && spec.tier() == Tier.ADMIN) {
                    cnpPriorities
                            .computeIfAbsent(spec.priority(), p -> new ArrayList<>())
                            .add(describe(cnp));
                } else if (spec != null && spec.tier() == Tier.BASELINE && spec.priority() >= BASELINE_PRIORITY) {
                    lastBaseline.add(describe(cnp));
                }
            }
        }
        for (HasMetadata o : objects) {
            switch (o) {
                case AdminNetworkPolicy anp -> {
                    ClusterNetworkPolicy cnp = admin(anp, refusals);
                    claim(names, cnp.getMetadata().getName(), describe(anp), refusals);
                    if (cnp.getSpec() != null) {
                        anpPriorities
                                .computeIfAbsent(cnp.getSpec().priority(), p -> new ArrayList<>())
                                .add(describe(anp));
                    }
                    out.add(cnp);
                }
                case BaselineAdminNetworkPolicy banp -> {
                    ClusterNetworkPolicy cnp = baseline(banp, refusals);
                    claim(names, cnp.getMetadata().getName(), describe(banp), refusals);
                    if (!lastBaseline.isEmpty()) {
                        // kovn evaluates the BANP after every Baseline tier CNP; at one priority they would share
                        // ACL priorities instead.
                        refusals.add(describe(banp) + ": " + String.join(", ", lastBaseline) + " already has Baseline"
                                + " tier priority " + BASELINE_PRIORITY + ", where the converted policy must be alone"
                                + " to stay last; give it a lower priority");
                    }
                    out.add(cnp);
                }
                default -> out.add(o);
            }
        }
        anpPriorities.forEach((priority, anps) -> {
            List<String> cnps = cnpPriorities.getOrDefault(priority, List.of());
            if (!cnps.isEmpty()) {
                // kovn orders the ANPs of a priority before its CNPs; two CNPs of one priority are unordered.
                refusals.add(String.join(", ", anps) + ": " + String.join(", ", cnps) + " already has Admin tier"
                        + " priority " + priority + ", after the AdminNetworkPolicies of that priority; as"
                        + " ClusterNetworkPolicies they would be unordered; give it a priority of its own");
            }
            if (anps.size() > 1) {
                notes.add("Admin tier priority " + priority + " is shared by " + String.join(", ", anps)
                        + ": the API leaves their order to the implementation, before and after");
            }
        });
        return new Conversion(refusals.isEmpty() ? out : List.of(), refusals, notes);
    }

    /** The Admin tier ClusterNetworkPolicy of {@code anp}; refusals are added to {@code refusals}. */
    public static ClusterNetworkPolicy admin(AdminNetworkPolicy anp, List<String> refusals) {
        String source = describe(anp);
        AdminNetworkPolicySpec spec = anp.getSpec();
        if (spec == null) {
            refusals.add(source + ": no spec");
            return ClusterNetworkPolicy.of(anp.getMetadata().getName(), null);
        }
        if (spec.priority() < 0 || spec.priority() > 1000) {
            refusals.add(source + ": priority " + spec.priority() + " (0..1000)");
        }
        RuleConverter rules = new RuleConverter(source, false, refusals);
        ClusterNetworkPolicy cnp = ClusterNetworkPolicy.of(
                anp.getMetadata().getName(),
                new ClusterNetworkPolicySpec(
                        Tier.ADMIN,
                        spec.priority(),
                        subject(spec.subject(), source, refusals),
                        rules.ingress(spec.ingress()),
                        rules.egress(spec.egress())));
        cnp.setMetadata(metadata(anp.getMetadata()));
        return cnp;
    }

    /** The Baseline tier ClusterNetworkPolicy of {@code banp}; refusals are added to {@code refusals}. */
    public static ClusterNetworkPolicy baseline(BaselineAdminNetworkPolicy banp, List<String> refusals) {
        String source = describe(banp);
        BaselineAdminNetworkPolicySpec spec = banp.getSpec();
        if (spec == null) {
            refusals.add(source + ": no spec");
            return ClusterNetworkPolicy.of(banp.getMetadata().getName(), null);
        }
        RuleConverter rules = new RuleConverter(source, true, refusals);
        ClusterNetworkPolicy cnp = ClusterNetworkPolicy.of(
                banp.getMetadata().getName(),
                new ClusterNetworkPolicySpec(
                        Tier.BASELINE,
                        BASELINE_PRIORITY,
                        subject(spec.subject(), source, refusals),
                        rules.ingress(spec.ingress()),
                        rules.egress(spec.egress())));
        cnp.setMetadata(metadata(banp.getMetadata()));
        return cnp;
    }

    private static ClusterNetworkPolicySubject subject(
            AdminNetworkPolicySubject subject, String source, List<String> refusals) {
        if (subject == null || (subject.namespaces() == null) == (subject.pods() == null)) {
            refusals.add(source + ": the subject must set exactly one of namespaces and pods");
            return null;
        }
        return new ClusterNetworkPolicySubject(subject.namespaces(), subject.pods());
    }

    private static ObjectMeta metadata(ObjectMeta from) {
        ObjectMeta meta = new ObjectMeta();
        meta.setName(from.getName());
        if (from.getLabels() != null && !from.getLabels().isEmpty())
            meta.setLabels(new LinkedHashMap<>(from.getLabels()));
        if (from.getAnnotations() != null) {
            Map<String, String> annotations = new LinkedHashMap<>(from.getAnnotations());
            annotations.remove(LAST_APPLIED);
            if (!annotations.isEmpty()) meta.setAnnotations(annotations);
        }
        return meta;
    }

    private static void claim(Map<String, String> names, String name, String owner, List<String> refusals) {
        if (name == null || name.isBlank()) {
            // the API server names every object; without one the output could not be applied (found by fuzzing)
            refusals.add(owner + ": no metadata.name");
            return;
        }
        String previous = names.putIfAbsent(name, owner);
        if (previous != null) {
            refusals.add(owner + ": its ClusterNetworkPolicy would be named " + name + " as " + previous
                    + "'s is; rename one of them");
        }
    }

    /** {@code kind/name}, lower case kind, as kubectl names objects. */
    static String describe(HasMetadata o) {
        return o.getKind().toLowerCase(Locale.ROOT) + "/" + o.getMetadata().getName();
    }
}
