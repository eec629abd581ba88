package io.kovn.policy.match;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.model.PolicyDirection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/** Builders of ACL match strings, spelled exactly as the reference spells them. Pure. */
public final class Matches {
    private Matches() {}

    /** {@code outport == @<pg>} for ingress, {@code inport == @<pg>} for egress. */
    public static String portGroup(PolicyDirection direction, String portGroupName) {
        return direction.portField() + " == @" + portGroupName;
    }

    /**
     * The peer match over one address set per family: {@code ((ip4.src == $a1))} or {@code ((ip4.src == $a1 || ip6.src
     * == $a2))}.
     *
     * @param addressSetByFamily address set names by family, in family order
     */
    public static String addressSets(PolicyDirection direction, Map<IpFamily, String> addressSetByFamily) {
        List<String> terms = new ArrayList<>();
        for (IpFamily family : IpFamily.values()) {
            String name = addressSetByFamily.get(family);
            if (name != null) {
                terms.add(family.matchField() + "." + direction.peerSide() + " == $" + name);
            }
        }
        return "((" + String.join(" || ", terms) + "))";
    }

    /**
     * An ipBlock: {@code (ip4.src == 10.0.0.0/16 && ip4.src != {10.0.1.0/24})}; OVN reads {@code !=} against a set as
     * "none of".
     */
    public static String ipBlock(PolicyDirection direction, IpFamily family, String cidr, List<String> except) {
        String field = family.matchField() + "." + direction.peerSide();
        StringBuilder m = new StringBuilder("(").append(field).append(" == ").append(cidr);
        if (!except.isEmpty()) {
            m.append(" && ")
                    .append(field)
                    .append(" != {")
                    .append(String.join(", ", except))
                    .append('}');
        }
        return m.append(')').toString();
    }

    /**
     * Named-port terms as one parenthesised disjunction: {@code ((ip4.dst == 10.244.1.4 && tcp.dst == 8080) || ...)}.
     * The terms are a sorted set, so a pod reached twice is listed once (the reference repeats them).
     */
    public static String namedPortTerms(SortedSet<String> terms) {
        return "(" + String.join(" || ", terms) + ")";
    }

    /** One named-port term {@code (ip4.dst == <ip> && tcp.dst == <port>)}. */
    public static String namedPortTerm(String ip, Protocol protocol, int port) {
        return "(" + IpFamily.of(ip).matchField() + ".dst == " + ip + " && " + protocol.field() + ".dst == " + port
                + ")";
    }

    /** Joins non-empty parts with {@code " && "}. */
    public static String and(String... parts) {
        List<String> nonEmpty = new ArrayList<>();
        for (String p : parts) {
            if (p != null && !p.isEmpty()) {
                nonEmpty.add(p);
            }
        }
        return String.join(" && ", nonEmpty);
    }
}
