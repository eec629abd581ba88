package io.kovn.controller.connect;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a ClusterNetworkConnect's {@code spec} declares, read and checked on its own (the reference's CEL rules, which
 * kovn's CRD only partly carries); checks against the rest of the cluster are {@link ConnectPlan}'s. Pure.
 *
 * @param selectors which networks to connect (their union)
 * @param connectSubnets where link subnets come from, at most one per IP family, IPv4 first
 * @param connectivity what is connected
 */
public record ConnectSpec(
        List<Selector> selectors, List<ConnectSubnet> connectSubnets, Set<Connectivity> connectivity) {
    /** The most selectors a CNC may have (the reference's). */
    public static final int MAX_SELECTORS = 5;

    public ConnectSpec {
        selectors = List.copyOf(selectors);
        connectSubnets = connectSubnets.stream()
                .sorted(Comparator.comparing(ConnectSubnet::family))
                .toList();
        connectivity = Set.copyOf(connectivity);
    }

    /** {@code networkSelectionType}. */
    public enum SelectionType {
        /**
         * ClusterUserDefinedNetworks whose labels {@code clusterUserDefinedNetworkSelector.networkSelector} matches.
         */
        CLUSTER_USER_DEFINED_NETWORKS(
                "ClusterUserDefinedNetworks", "clusterUserDefinedNetworkSelector", "networkSelector"),
        /**
         * The primary networks (UDN or CUDN) of the namespaces
         * {@code primaryUserDefinedNetworkSelector.namespaceSelector} matches.
         */
        PRIMARY_USER_DEFINED_NETWORKS(
                "PrimaryUserDefinedNetworks", "primaryUserDefinedNetworkSelector", "namespaceSelector");

        private final String apiName;
        private final String field;
        private final String selectorField;

        SelectionType(String apiName, String field, String selectorField) {
            this.apiName = apiName;
            this.field = field;
            this.selectorField = selectorField;
        }

        public String apiName() {
            return apiName;
        }
    }

    /** One {@code networkSelectors} entry: its type and its label selector (on CUDNs, or on namespaces). */
    public record Selector(SelectionType type, LabelSelector selector) {
        public Selector {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(selector, "selector");
        }
    }

    /**
     * One {@code connectSubnets} entry.
     *
     * @param networkPrefix the length of a Layer3 network's block (a Layer2 network takes a /31 or /127)
     */
    public record ConnectSubnet(IpPrefix cidr, int networkPrefix) {
        public IpFamily family() {
            return cidr.family();
        }

        @Override
        public String toString() {
            return cidr + " (networkPrefix " + networkPrefix + ")";
        }
    }

    /** {@code connectivity}. */
    public enum Connectivity {
        POD_NETWORK("PodNetwork"),
        SERVICE_NETWORK("ServiceNetwork");

        private final String apiName;

        Connectivity(String apiName) {
            this.apiName = apiName;
        }

        public String apiName() {
            return apiName;
        }
    }

    /** The connect subnet of a family, if the spec has one. */
    public Optional<ConnectSubnet> connectSubnet(IpFamily family) {
        return connectSubnets.stream().filter(s -> s.family() == family).findFirst();
    }

    /**
     * Reads a CNC's {@code spec} (as a generic resource holds it).
     *
     * @throws InvalidConnectException naming the field
     */
    public static ConnectSpec parse(Object spec) {
        Map<?, ?> root = map(spec, "spec");
        return new ConnectSpec(
                selectors(root.get("networkSelectors")),
                connectSubnets(root.get("connectSubnets")),
                connectivity(root.get("connectivity")));
    }

    private static List<Selector> selectors(Object value) {
        List<?> items = list(value, "networkSelectors");
        if (items.isEmpty() || items.size() > MAX_SELECTORS) {
            throw new InvalidConnectException(
                    "networkSelectors must have 1.." + MAX_SELECTORS + " entries, not " + items.size());
        }
        List<Selector> out = new ArrayList<>();
        for (Object item : items) {
            Map<?, ?> entry = map(item, "networkSelectors[]");
            String typeText = string(entry.get("networkSelectionType"), "networkSelectors[].networkSelectionType");
            SelectionType type = null;
            for (SelectionType t : SelectionType.values()) if (t.apiName.equals(typeText)) type = t;
            if (type == null) {
                throw new InvalidConnectException("networkSelectors[].networkSelectionType \"" + typeText
                        + "\": only ClusterUserDefinedNetworks or PrimaryUserDefinedNetworks can be selected");
            }
            for (SelectionType t : SelectionType.values()) {
                if (t != type && entry.get(t.field) != null) {
                    throw new InvalidConnectException(
                            "networkSelectors[]: " + t.field + " is set but networkSelectionType is " + typeText);
                }
            }
            String where = "networkSelectors[]." + type.field;
            Map<?, ?> holder = map(entry.get(type.field), where);
            Object selector = holder.get(type.selectorField);
            if (selector == null) throw new InvalidConnectException(where + "." + type.selectorField + " is missing");
            LabelSelector parsed;
            try {
                parsed = Serialization.jsonMapper().convertValue(selector, LabelSelector.class);
            } catch (IllegalArgumentException e) {
                throw new InvalidConnectException(where + "." + type.selectorField + " is not a label selector");
            }
            SelectionType t = type;
            if (out.stream().anyMatch(s -> s.type() == t)) {
                throw new InvalidConnectException(
                        "networkSelectors: more than one " + typeText + " entry (one per networkSelectionType)");
            }
            out.add(new Selector(type, parsed));
        }
        return out;
    }

    private static List<ConnectSubnet> connectSubnets(Object value) {
        List<?> items = list(value, "connectSubnets");
        if (items.isEmpty() || items.size() > 2) {
            throw new InvalidConnectException("connectSubnets must have 1 or 2 entries, not " + items.size());
        }
        List<ConnectSubnet> out = new ArrayList<>();
        for (Object item : items) {
            Map<?, ?> entry = map(item, "connectSubnets[]");
            String text = string(entry.get("cidr"), "connectSubnets[].cidr");
            IpPrefix cidr;
            try {
                cidr = IpPrefix.parse(text);
            } catch (IllegalArgumentException e) {
                throw new InvalidConnectException("connectSubnets[].cidr: \"" + text + "\" is not a CIDR");
            }
            if (!cidr.isNetwork()) {
                throw new InvalidConnectException("connectSubnets[].cidr: " + text
                        + " is not a network address (host bits set; the network is " + cidr.network() + ")");
            }
            int prefix = integer(entry.get("networkPrefix"), "connectSubnets[].networkPrefix");
            // the reference: longer than the CIDR, and below 32 for IPv4 (a Layer3 block holds a /31 per node)
            int max = cidr.family().bits() - 1;
            if (prefix <= cidr.length() || prefix > max) {
                throw new InvalidConnectException("connectSubnets[]: networkPrefix " + prefix + " does not fit " + cidr
                        + " (it must be longer than /" + cidr.length() + " and at most /" + max + ")");
            }
            ConnectSubnet s = new ConnectSubnet(cidr, prefix);
            if (out.stream().anyMatch(o -> o.family() == s.family())) {
                throw new InvalidConnectException("connectSubnets: two "
                        + s.family().key() + " CIDRs; when 2 CIDRs are set, they must be from different IP families");
            }
            out.add(s);
        }
        if (out.size() == 2 && hostBits(out.get(0)) != hostBits(out.get(1))) {
            throw new InvalidConnectException(
                    "connectSubnets: for dual-stack, networkPrefix must have matching host bits: " + out.get(0)
                            + " leaves " + hostBits(out.get(0)) + ", " + out.get(1) + " leaves "
                            + hostBits(out.get(1)));
        }
        return out;
    }

    private static int hostBits(ConnectSubnet s) {
        return s.family().bits() - s.networkPrefix();
    }

    private static Set<Connectivity> connectivity(Object value) {
        List<?> items = list(value, "connectivity");
        if (items.isEmpty() || items.size() > 2) {
            throw new InvalidConnectException("connectivity must have 1 or 2 entries, not " + items.size());
        }
        Set<Connectivity> out = EnumSet.noneOf(Connectivity.class);
        for (Object item : items) {
            String text = string(item, "connectivity[]");
            Connectivity c = null;
            for (Connectivity k : Connectivity.values()) if (k.apiName.equals(text)) c = k;
            if (c == null)
                throw new InvalidConnectException(
                        "connectivity[] must be PodNetwork or ServiceNetwork, not \"" + text + "\"");
            if (!out.add(c))
                throw new InvalidConnectException("connectivity cannot contain duplicate values (" + text + ")");
        }
        return out;
    }

    private static Map<?, ?> map(Object value, String where) {
        if (value instanceof Map<?, ?> m) return m;
        throw new InvalidConnectException(where + (value == null ? " is missing" : " must be an object"));
    }

    private static List<?> list(Object value, String where) {
        if (value instanceof List<?> l) return l;
        throw new InvalidConnectException(where + (value == null ? " is missing" : " must be a list"));
    }

    private static String string(Object value, String where) {
        if (value instanceof String s) return s;
        throw new InvalidConnectException(where + (value == null ? " is missing" : " must be a string"));
    }

    private static int integer(Object value, String where) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) return n.intValue();
        throw new InvalidConnectException(where + (value == null ? " is missing" : " must be an integer"));
    }
}
