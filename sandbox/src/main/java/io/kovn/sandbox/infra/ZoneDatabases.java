package io.kovn.sandbox.infra;

import io.kovn.runtime.NetnsDaemon;
import io.kovn.runtime.OvnControllerProcess;
import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.Netns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One zone's databases and northd, all in the root namespace on unix sockets in the node folder
 * (sockets are files, so the node's namespace reaches them too): NB, SB, the node's conf.db, and
 * ovn-northd between NB and SB.
 */
final class ZoneDatabases implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(20);

    private final Path folder;
    private final List<NetnsDaemon> daemons = new ArrayList<>();

    private ZoneDatabases(Path folder) {
        this.folder = folder;
    }

    static ZoneDatabases start(OvnHome home, Path folder, String zone) {
        ZoneDatabases z = new ZoneDatabases(folder);
        try {
            z.startDb(home, "nb", home.nbSchema());
            z.startDb(home, "sb", home.sbSchema());
            z.startDb(home, "conf", home.vswitchSchema());
            z.daemons.add(NetnsDaemon.start(new NetnsDaemon.Spec("ovn-northd", List.of(
                    home.bin().resolve("ovn-northd").toString(),
                    "--ovnnb-db=unix:" + z.nbSocket(), "--ovnsb-db=unix:" + z.sbSocket(),
                    "--pidfile=" + folder.resolve("northd.pid"), "--unixctl=" + folder.resolve("northd.ctl"),
                    "--log-file=" + folder.resolve("northd.log"), "--no-chdir", "-vconsole:emer", "-vfile:info"),
                    Netns.root(), OvnControllerProcess.env(folder), folder.resolve("northd.ctl"),
                    folder.resolve("northd.pid"), folder.resolve("northd.log"), folder.resolve("northd.out")), READY));
            Command.run(home.bin().resolve("ovn-nbctl").toString(), "--db=unix:" + z.nbSocket(), "--", "init",
                    "--", "set", "NB_Global", ".", "name=" + '"' + zone + '"');
            Command.run(home.bin().resolve("ovs-vsctl").toString(), "--db=unix:" + z.ovsDbSocket(), "--no-wait", "init");
            return z;
        } catch (RuntimeException e) {
            z.close();
            throw e;
        }
    }

    private void startDb(OvnHome home, String name, Path schema) {
        Path db = folder.resolve(name + ".db");
        if (!Files.exists(db)) {
            Command.run(home.bin().resolve("ovsdb-tool").toString(), "create", db.toString(), schema.toString());
        }
        Path sock = folder.resolve(name + ".sock");
        daemons.add(NetnsDaemon.start(new NetnsDaemon.Spec("ovsdb-server " + name, List.of(
                home.bin().resolve("ovsdb-server").toString(), db.toString(),
                "--remote=punix:" + sock, "--pidfile=" + folder.resolve(name + "-db.pid"),
                "--unixctl=" + folder.resolve(name + "-db.ctl"), "--log-file=" + folder.resolve(name + "-db.log"),
                "--no-chdir", "-vconsole:emer", "-vfile:info"),
                Netns.root(), OvnControllerProcess.env(folder), folder.resolve(name + "-db.ctl"),
                folder.resolve(name + "-db.pid"), folder.resolve(name + "-db.log"), folder.resolve(name + "-db.out")), READY));
        long deadline = System.nanoTime() + READY.toNanos();
        while (!Files.exists(sock)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("ovsdb-server " + name + " did not create " + sock);
            }
            Thread.onSpinWait();
        }
    }

    Path nbSocket() {
        return folder.resolve("nb.sock");
    }

    Path sbSocket() {
        return folder.resolve("sb.sock");
    }

    Path ovsDbSocket() {
        return folder.resolve("conf.sock");
    }

    /** Stops northd, then the databases (reverse start order). Idempotent. */
    @Override
    public void close() {
        for (int i = daemons.size() - 1; i >= 0; i--) {
            daemons.get(i).stop();
        }
        daemons.clear();
    }
}
