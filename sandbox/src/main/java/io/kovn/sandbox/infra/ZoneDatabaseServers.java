package io.kovn.sandbox.infra;

import io.kovn.runtime.NorthdProcess;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.net.Command;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One zone's databases and northd, all in the root namespace on unix sockets in the node folder (sockets are files, so
 * the node's namespace reaches them too): NB, SB, the node's conf.db, and ovn-northd between NB and SB.
 */
final class ZoneDatabaseServers implements AutoCloseable {
    private final List<AutoCloseable> started = new ArrayList<>();
    private OvsdbServerProcess nb;
    private OvsdbServerProcess sb;
    private OvsdbServerProcess conf;

    private ZoneDatabaseServers() {}

    static ZoneDatabaseServers start(OvnRuntime runtime, Path folder, String zone) {
        ZoneDatabaseServers z = new ZoneDatabaseServers();
        try {
            z.nb = z.track(OvsdbServerProcess.start(
                    runtime, runtime.nbSchema(), folder, "nb", OvsdbServerProcess.Options.unixOnly()));
            z.sb = z.track(OvsdbServerProcess.start(
                    runtime, runtime.sbSchema(), folder, "sb", OvsdbServerProcess.Options.unixOnly()));
            z.conf = z.track(OvsdbServerProcess.start(
                    runtime, runtime.vswitchSchema(), folder, "conf", OvsdbServerProcess.Options.unixOnly()));
            z.track(NorthdProcess.start(runtime, z.nb.unixEndpoint(), z.sb.unixEndpoint(), folder));
            Command.run(
                    runtime.bin("ovn-nbctl").toString(),
                    "--db=" + z.nb.unixEndpoint(),
                    "--",
                    "init",
                    "--",
                    "set",
                    "NB_Global",
                    ".",
                    "name=\"" + zone + "\"");
            Command.run(runtime.bin("ovs-vsctl").toString(), "--db=" + z.conf.unixEndpoint(), "--no-wait", "init");
            return z;
        } catch (RuntimeException e) {
            z.close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T track(T process) {
        started.add(process);
        return process;
    }

    Path nbSocket() {
        return nb.socket();
    }

    Path sbSocket() {
        return sb.socket();
    }

    Path ovsDbSocket() {
        return conf.socket();
    }

    /** Stops northd, then the databases (reverse start order). Idempotent. */
    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                // keep stopping the others; Leftovers catches what survives
            }
        }
        started.clear();
    }
}
