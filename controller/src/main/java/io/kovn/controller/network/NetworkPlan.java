package io.kovn.controller.network;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.policy.select.Selectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cluster's user-defined networks as a pure function of what is declared: which are accepted (with their ids and
 * the namespaces each is the primary network of) and why the others are refused. The cluster manager writes the
 * verdicts as {@code NetworkCreated} conditions and the ids as annotations, and cuts node subnets for the accepted
 * Layer3 networks.
 *
 * <p>Deterministic and stable: declarations are taken oldest first (creation time, then kind, namespace, name), so a
 * network that was accepted keeps its place when a later one conflicts with it. Ids: a declaration keeps the id its
 * annotation states when no older one holds it; the others get the lowest free ids. Networks may overlap one another
 * (they are isolated; connecting them is ClusterNetworkConnect's business), never the cluster's own ranges.
 */
public final class NetworkPlan {
    /** A namespace already has another primary network. */
    public static final String PRIMARY_NETWORK_CONFLICT = "PrimaryNetworkConflict";
    /** A subnet overlaps a range the cluster uses, or the network's own join subnet. */
    public static final String SUBNET_OVERLAP = "SubnetOverlap";
    /** A UDN's namespace lacks {@value #PRIMARY_NAMESPACE_LABEL}. */
    public static final String NAMESPACE_NOT_LABELLED = "NamespaceNotLabelled";
    /** The network uses an IP family the cluster does not have. */
    public static final String FAMILY_NOT_SUPPORTED = "IpFamilyNotSupported";
    /**
     * The label a namespace must carry (any value) to take a primary user-defined network, set when it is created: pods
     * created before would sit on the default network (the reference's rule).
     */
    public static final String PRIMARY_NAMESPACE_LABEL = "k8s.ovn.org/primary-user-defined-network";
    /** Every id 1..4095 is taken. */
    public static final String NETWORK_IDS_EXHAUSTED = "NetworkIdsExhausted";

    private NetworkPlan() {}

    /** UserDefinedNetwork (namespaced) or ClusterUserDefinedNetwork. */
    public enum Kind {
        UDN,
        CUDN
    }

    /**
     * One declared network, as read from its object.
     *
     * @param namespace the UDN's namespace; null for a CUDN
     * @param created the creation timestamp as the API server writes it (RFC 3339, sorts as text)
     * @param annotatedId the id its {@code k8s.ovn.org/network-id} annotation states, if any
     * @param spec the object holding {@code topology} ({@code spec} of a UDN, {@code spec.network} of a CUDN)
     * @param namespaceSelector a CUDN's namespaces
     */
    public record Declaration(
            Kind kind,
            String namespace,
            String name,
            String created,
            Optional<Integer> annotatedId,
            Object spec,
            LabelSelector namespaceSelector) {
        /**
         * A UDN's or CUDN's declaration as its object has it: the spec holder ({@code spec} or {@code spec.network}), a
         * CUDN's namespace selector, the id its annotation states (an unreadable one is none: it is replaced).
         */
        public static Declaration of(Kind kind, GenericKubernetesResource o) {
            Map<?, ?> spec = o.getAdditionalProperties().get("spec") instanceof Map<?, ?> m ? m : null;
            Object holder = kind == Kind.UDN ? spec : spec == null ? null : spec.get("network");
            LabelSelector selector = null;
            if (kind == Kind.CUDN && spec != null && spec.get("namespaceSelector") != null) {
                selector = Serialization.jsonMapper().convertValue(spec.get("namespaceSelector"), LabelSelector.class);
            }
            Optional<Integer> id = Optional.empty();
            String text = o.getMetadata().getAnnotations() == null
                    ? null
                    : o.getMetadata().getAnnotations().get(NetworkController.NETWORK_ID_ANNOTATION);
            try {
                if (text != null) id = Optional.of(Integer.parseInt(text.strip()));
            } catch (NumberFormatException e) {
                // an unreadable id is replaced by a new one
            }
            return new Declaration(
                    kind,
                    o.getMetadata().getNamespace(),
                    o.getMetadata().getName(),
                    String.valueOf(o.getMetadata().getCreationTimestamp()),
                    id,
                    holder,
                    selector);
        }

        /** The reference's network name. */
        public String networkName() {
            return NetworkPlan.networkName(kind, namespace, name);
        }

        /** {@code UserDefinedNetwork ns/name} or {@code ClusterUserDefinedNetwork name}. */
        public String label() {
            return kind == Kind.UDN
                    ? "UserDefinedNetwork " + namespace + "/" + name
                    : "ClusterUserDefinedNetwork " + name;
        }
    }

    /** The reference's network name of a UDN ({@code <namespace>_<name>}) or a CUDN ({@code cluster_udn_<name>}). */
    public static String networkName(Kind kind, String namespace, String name) {
        return kind == Kind.UDN ? namespace + "_" + name : "cluster_udn_" + name;
    }

    /** A range of the cluster's a network must stay out of, named for messages ("the service network"). */
    public record Reserved(String what, IpPrefix prefix) {
        /**
         * The cluster's ranges: its pod and service networks, and the reference's fixed ones (the default network's
         * join subnets, the transit switch subnets, the masquerade subnets).
         */
        public static List<Reserved> ofCluster(List<IpPrefix> clusterSubnets, List<IpPrefix> serviceSubnets) {
            List<Reserved> out = new ArrayList<>();
            clusterSubnets.forEach(p -> out.add(new Reserved("the cluster network", p)));
            serviceSubnets.forEach(p -> out.add(new Reserved("the service network", p)));
            for (String p : List.of("100.64.0.0/16", "fd98::/64"))
                out.add(new Reserved("the default network's join subnet", IpPrefix.parse(p)));
            for (String p : List.of("100.88.0.0/16", "fd97::/64"))
                out.add(new Reserved("the transit subnet", IpPrefix.parse(p)));
            for (String p : List.of("169.254.0.0/17", "fd69::/112"))
                out.add(new Reserved("the masquerade subnet", IpPrefix.parse(p)));
            return List.copyOf(out);
        }
    }

    /** The order declarations are judged in: the oldest first; the first to claim a namespace keeps it. */
    public static final Comparator<Declaration> ORDER = Comparator.comparing(Declaration::created)
            .thenComparing(Declaration::kind)
            .thenComparing(d -> String.valueOf(d.namespace()))
            .thenComparing(Declaration::name);

    /** Whether a namespace's labels let it have a primary user-defined network. */
    public static boolean labelled(Map<String, String> labels) {
        return labels != null && labels.containsKey(PRIMARY_NAMESPACE_LABEL);
    }

    /** What became of one declaration. */
    public sealed interface Verdict {
        /**
         * @param namespaces the namespaces it is the primary network of
         * @param skipped namespaces its selector matches that already have an older primary network or lack
         *     {@link #PRIMARY_NAMESPACE_LABEL}
         */
        record Accepted(Network network, List<String> namespaces, List<String> skipped) implements Verdict {
            public Accepted {
                namespaces = List.copyOf(namespaces);
                skipped = List.copyOf(skipped);
            }
        }

        record Refused(String reason, String message) implements Verdict {}
    }

    /**
     * @param namespaces every namespace's labels
     * @param reserved the ranges networks must not overlap
     * @return a verdict per declaration, in the given order
     */
    public static Map<Declaration, Verdict> plan(
            List<Declaration> declarations, Map<String, Map<String, String>> namespaces, List<Reserved> reserved) {
        return plan(declarations, namespaces, reserved, EnumSet.allOf(IpFamily.class));
    }

    /** @param families the IP families the cluster has */
    public static Map<Declaration, Verdict> plan(
            List<Declaration> declarations,
            Map<String, Map<String, String>> namespaces,
            List<Reserved> reserved,
            Set<IpFamily> families) {
        List<Declaration> ordered = new ArrayList<>(declarations);
        ordered.sort(ORDER);
        Map<Declaration, Verdict> verdicts = new HashMap<>();
        Map<String, String> primaryOf = new HashMap<>(); // namespace -> network name
        List<Declaration> accepted = new ArrayList<>();
        Map<Declaration, NetworkSpec> specs = new HashMap<>();
        Map<Declaration, Served> served = new HashMap<>();
        for (Declaration d : ordered) {
            NetworkSpec spec;
            try {
                spec = NetworkSpec.parse(d.spec());
                checkRanges(spec, reserved);
                for (IpPrefix cidr : spec.subnets().stream().map(c -> c.cidr()).toList()) {
                    if (!families.contains(cidr.family())) {
                        throw new InvalidNetworkException(
                                FAMILY_NOT_SUPPORTED,
                                "network " + d.networkName() + " uses "
                                        + cidr.family().key() + " subnet " + cidr + " but the cluster has no "
                                        + cidr.family().key());
                    }
                }
            } catch (InvalidNetworkException e) {
                verdicts.put(d, new Verdict.Refused(e.reason(), e.getMessage()));
                continue;
            }
            if (d.kind() == Kind.UDN && !labelled(namespaces.get(d.namespace()))) {
                verdicts.put(
                        d,
                        new Verdict.Refused(
                                NAMESPACE_NOT_LABELLED,
                                "namespace " + d.namespace() + " lacks the label " + PRIMARY_NAMESPACE_LABEL
                                        + ", which a namespace with a primary user-defined network must carry from its creation"));
                continue;
            }
            List<String> selected = d.kind() == Kind.UDN
                    ? List.of(d.namespace())
                    : namespaces.entrySet().stream()
                            .filter(e -> Selectors.matches(d.namespaceSelector(), e.getValue()))
                            .map(Map.Entry::getKey)
                            .sorted()
                            .toList();
            List<String> mine = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            // a CUDN skips namespaces that are not labelled, or already have an older primary network
            for (String ns : selected)
                (primaryOf.containsKey(ns) || !labelled(namespaces.get(ns)) ? skipped : mine).add(ns);
            if (d.kind() == Kind.UDN && !skipped.isEmpty()) {
                verdicts.put(
                        d,
                        new Verdict.Refused(
                                PRIMARY_NETWORK_CONFLICT,
                                "namespace " + d.namespace() + " already has primary network "
                                        + primaryOf.get(d.namespace()) + "; a namespace has one primary network"));
                continue;
            }
            mine.forEach(ns -> primaryOf.put(ns, d.networkName()));
            specs.put(d, spec);
            served.put(d, new Served(mine, skipped));
            accepted.add(d);
        }
        Map<Declaration, Integer> ids = ids(accepted);
        for (Declaration d : accepted) {
            Integer id = ids.get(d);
            if (id == null) {
                verdicts.put(
                        d,
                        new Verdict.Refused(
                                NETWORK_IDS_EXHAUSTED, "every network id 1.." + Network.MAX_ID + " is taken"));
                continue;
            }
            NetworkSpec s = specs.get(d);
            Network network =
                    new Network(d.networkName(), id, s.topology(), s.role(), s.subnets(), s.mtu(), s.joinSubnets());
            verdicts.put(
                    d,
                    new Verdict.Accepted(
                            network, served.get(d).mine(), served.get(d).skipped()));
        }
        Map<Declaration, Verdict> out = new LinkedHashMap<>();
        declarations.forEach(d -> out.put(d, verdicts.get(d)));
        return out;
    }

    private record Served(List<String> mine, List<String> skipped) {}

    /** Ids for the accepted declarations (oldest first): annotated ids kept when free, then the lowest free ones. */
    private static Map<Declaration, Integer> ids(List<Declaration> accepted) {
        Map<Declaration, Integer> ids = new HashMap<>();
        TreeSet<Integer> taken = new TreeSet<>();
        for (Declaration d : accepted) {
            d.annotatedId()
                    .filter(id -> id >= 1 && id <= Network.MAX_ID && !taken.contains(id))
                    .ifPresent(id -> {
                        ids.put(d, id);
                        taken.add(id);
                    });
        }
        int next = 1;
        for (Declaration d : accepted) {
            if (ids.containsKey(d)) continue;
            while (next <= Network.MAX_ID && taken.contains(next)) next++;
            if (next > Network.MAX_ID) break;
            ids.put(d, next);
            taken.add(next);
        }
        return ids;
    }

    private static void checkRanges(NetworkSpec spec, List<Reserved> reserved) {
        for (IpPrefix subnet : spec.subnets().stream().map(c -> c.cidr()).toList()) {
            for (Reserved r : reserved) {
                if (subnet.overlaps(r.prefix())) {
                    throw new InvalidNetworkException(
                            SUBNET_OVERLAP, "subnet " + subnet + " overlaps " + r.what() + " " + r.prefix());
                }
            }
            for (IpPrefix join : spec.joinSubnets()) {
                if (subnet.overlaps(join)) {
                    throw new InvalidNetworkException(
                            SUBNET_OVERLAP, "subnet " + subnet + " overlaps the network's join subnet " + join);
                }
            }
        }
        for (IpPrefix join : spec.joinSubnets()) {
            for (Reserved r : reserved) {
                if (join.overlaps(r.prefix())) {
                    throw new InvalidNetworkException(
                            SUBNET_OVERLAP, "join subnet " + join + " overlaps " + r.what() + " " + r.prefix());
                }
            }
        }
    }
}
