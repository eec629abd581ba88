package io.kovn.node.gateway;

import io.kovn.runtime.net.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ovs-ofctl} against one vswitchd's bridges, through their management sockets in the vswitchd's run directory
 * ({@code <rundir>/<bridge>.mgmt}).
 *
 * @param executable the ovs-ofctl executable
 * @param runDir the vswitchd's run directory (where its conf.db socket and bridge sockets live)
 */
public record OvsOfctl(Path executable, Path runDir) {
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    /** ct actions and ct_mark need OXM/NXM with table ids; a bridge's OpenFlow 1.0 session refuses them. */
    private static final String PROTOCOLS = "-OOpenFlow13";

    /** The bridge's OpenFlow target. */
    public String target(String bridge) {
        return "unix:" + runDir.resolve(bridge + ".mgmt");
    }

    /**
     * Makes the bridge's flow table exactly {@code flows} ({@code replace-flows}: only differing flows change, so
     * repeating it with the same flows changes nothing and disturbs no traffic).
     */
    public void replaceFlows(String bridge, String flows) {
        Command.exec(
                        List.of(executable.toString(), PROTOCOLS, "replace-flows", target(bridge), "-"),
                        Map.of(),
                        TIMEOUT,
                        flows)
                .orThrow();
    }

    /** {@code ovs-ofctl dump-flows <bridge> [args]}. */
    public String dumpFlows(String bridge, String... args) {
        List<String> argv = new ArrayList<>(List.of(executable.toString(), PROTOCOLS, "dump-flows", target(bridge)));
        argv.addAll(List.of(args));
        return Command.exec(argv, Map.of(), TIMEOUT).orThrow();
    }
}
