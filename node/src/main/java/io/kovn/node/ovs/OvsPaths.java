package io.kovn.node.ovs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a node's Open vSwitch is: the folder of its tools ({@code ovs-ofctl}) and the unix socket of its conf.db, which
 * kovn configures over OVSDB ({@link OvsConfDb}); ovs-vswitchd's bridge sockets are in the same run directory as the
 * socket.
 *
 * @param binDir the folder holding ovs-ofctl
 * @param dbSocket the conf.db unix socket
 */
public record OvsPaths(Path binDir, Path dbSocket) {
    public OvsPaths {
        Objects.requireNonNull(binDir, "binDir");
        Objects.requireNonNull(dbSocket, "dbSocket");
    }

    /** ovs-vswitchd's run directory: its bridges' OpenFlow management sockets ({@code <bridge>.mgmt}). */
    public Path runDir() {
        return dbSocket.getParent();
    }
}
