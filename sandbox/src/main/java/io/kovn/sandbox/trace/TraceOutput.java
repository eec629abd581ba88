package io.kovn.sandbox.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code ovn-trace} run printed, parsed: the logical flows the packet hit (stage, priority, flow uuid prefix,
 * match) in order, and the ports it was output to. Pure.
 *
 * @param flows every logical flow hit, in trace order
 * @param outputs the logical ports the packet left through, in order
 */
public record TraceOutput(List<FlowHit> flows, List<String> outputs) {
    private static final Pattern FLOW =
            Pattern.compile("^\\s*\\d+\\. (\\S+) \\([^)]*\\): (.*), priority (\\d+), uuid ([0-9a-f]{8})$");
    private static final Pattern OUTPUT = Pattern.compile("/\\* output to \"([^\"]+)\"");
    private static final Pattern DATAPATH = Pattern.compile("^(ingress|egress)\\(dp=\"([^\"]+)\"");

    /** One logical flow the packet matched, and the actions it ran. */
    public record FlowHit(
            String datapath, String stage, int priority, String uuidPrefix, String match, List<String> actions) {
        /** Whether this flow's actions drop the packet. */
        public boolean drops() {
            return actions.stream().anyMatch(a -> a.equals("drop;") || a.startsWith("/* drop"));
        }

        public boolean isAclStage() {
            return stage.contains("_acl_eval") || stage.contains("_acl_action") || stage.contains("_acl_after_lb_eval");
        }
    }

    public static TraceOutput parse(String text) {
        List<FlowHit> flows = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        String datapath = "";
        FlowHit current = null;
        for (String line : text.split("\n")) {
            Matcher dp = DATAPATH.matcher(line);
            if (dp.find()) {
                datapath = dp.group(2);
                current = null;
                continue;
            }
            Matcher f = FLOW.matcher(line);
            if (f.matches()) {
                current = new FlowHit(
                        datapath, f.group(1), Integer.parseInt(f.group(3)), f.group(4), f.group(2), new ArrayList<>());
                flows.add(current);
                continue;
            }
            Matcher o = OUTPUT.matcher(line);
            if (o.find()) outputs.add(o.group(1));
            if (current != null && line.startsWith("    ")) current.actions().add(line.trim());
        }
        return new TraceOutput(List.copyOf(flows), List.copyOf(outputs));
    }

    /** Whether the packet left through {@code port}. */
    public boolean reached(String port) {
        return outputs.contains(port);
    }

    /** The flow that dropped the packet, if one did. */
    public Optional<FlowHit> dropper() {
        return flows.stream().filter(FlowHit::drops).findFirst();
    }
}
