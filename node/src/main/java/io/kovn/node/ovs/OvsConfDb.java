package io.kovn.node.ovs;

import io.kovn.controller.OvsdbConnections;
import io.kovn.ovs.vswitch.Bridge;
import io.kovn.ovs.vswitch.Interface;
import io.kovn.ovs.vswitch.OpenVSwitch;
import io.kovn.ovs.vswitch.Port;
import io.kovn.ovsdb.cache.CacheListener;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.ops.TransactionResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A node's Open vSwitch configuration database (conf.db) over one OVSDB connection: the {@code Open_vSwitch},
 * {@code Bridge}, {@code Port} and {@code Interface} rows in a monitor cache (the columns kovn reads; not the
 * statistics ovs-vswitchd rewrites every few seconds), and transactions of {@link ConfDbOps}. As {@code ovs-vsctl} does
 * without {@code --no-wait}, {@link #transactAndWait} increments {@code next_cfg} with the change and returns once
 * ovs-vswitchd has applied it ({@code cur_cfg} reached that value): a new bridge's or internal port's device then
 * exists and ports have their {@code ofport}.
 */
public final class OvsConfDb implements AutoCloseable {
    public static final String DATABASE = "Open_vSwitch";
    /** Bound of a request and of a wait for ovs-vswitchd, as ovs-vsctl's {@code --timeout} was. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final List<TableMonitor> MONITORED = List.of(
            new TableMonitor(
                    OpenVSwitch.TABLE_NAME,
                    List.of(OpenVSwitch.BRIDGES, OpenVSwitch.EXTERNAL_IDS, OpenVSwitch.NEXT_CFG, OpenVSwitch.CUR_CFG),
                    List.of()),
            new TableMonitor(
                    Bridge.TABLE_NAME,
                    List.of(
                            Bridge.NAME,
                            Bridge.PORTS,
                            Bridge.DATAPATH_TYPE,
                            Bridge.FAIL_MODE,
                            Bridge.OTHER_CONFIG,
                            Bridge.EXTERNAL_IDS),
                    List.of()),
            new TableMonitor(Port.TABLE_NAME, List.of(Port.NAME, Port.INTERFACES, Port.EXTERNAL_IDS), List.of()),
            new TableMonitor(
                    Interface.TABLE_NAME,
                    List.of(
                            Interface.NAME,
                            Interface.TYPE,
                            Interface.OPTIONS,
                            Interface.MAC,
                            Interface.MAC_IN_USE,
                            Interface.EXTERNAL_IDS,
                            Interface.OFPORT,
                            Interface.ERROR),
                    List.of()));

    private final Path socket;
    private final Duration timeout;
    private final OvsdbClient client;
    private final MonitorCache cache;

    private OvsConfDb(Path socket, Duration timeout, OvsdbClient client, MonitorCache cache) {
        this.socket = socket;
        this.timeout = timeout;
        this.client = client;
        this.cache = cache;
    }

    /** Connects with {@link #DEFAULT_TIMEOUT}. */
    public static OvsConfDb connect(Path socket) {
        return connect(socket, DEFAULT_TIMEOUT);
    }

    /**
     * Connects to the conf.db unix socket and fills the cache.
     *
     * @throws IllegalStateException when the database cannot be reached or monitored within {@code timeout}
     */
    public static OvsConfDb connect(Path socket, Duration timeout) {
        OvsdbClient client = OvsdbClient.builder()
                .endpoint("unix:" + socket)
                .timeout(timeout)
                .transactionListener(OvsdbConnections.transactionListener())
                .connect();
        MonitorCache cache = null;
        try {
            cache = MonitorCache.start(client, DATABASE, MONITORED);
            cache.synced().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new OvsConfDb(socket, timeout, client, cache);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close(cache, client);
            throw new IllegalStateException("interrupted while monitoring " + socket, e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            close(cache, client);
            throw new IllegalStateException("cannot monitor the Open_vSwitch database at " + socket + ": " + e, e);
        }
    }

    private static void close(MonitorCache cache, OvsdbClient client) {
        if (cache != null) {
            cache.close();
        }
        client.close();
    }

    /** The conf.db socket (ovs-vswitchd's run directory holds its bridges' OpenFlow sockets beside it). */
    public Path socket() {
        return socket;
    }

    /** The bound of a request and of a wait for ovs-vswitchd. */
    public Duration timeout() {
        return timeout;
    }

    /** The single {@code Open_vSwitch} row, once someone (ovs-ctl, {@code ovs-vsctl init}, or a write here) made it. */
    public Optional<OpenVSwitch> root() {
        return cache.table(OpenVSwitch.TABLE_NAME).rows().stream().findFirst().map(OpenVSwitch::fromRow);
    }

    public Optional<Bridge> bridge(String name) {
        return cache.table(Bridge.TABLE_NAME).byName(name).stream().findFirst().map(Bridge::fromRow);
    }

    public Optional<Port> port(String name) {
        return cache.table(Port.TABLE_NAME).byName(name).stream().findFirst().map(Port::fromRow);
    }

    /** The interface of that name (a port's single interface has the port's name). */
    public Optional<Interface> iface(String name) {
        return cache.table(Interface.TABLE_NAME).byName(name).stream()
                .findFirst()
                .map(Interface::fromRow);
    }

    /** Every interface meeting {@code filter} (a scan of the cache). */
    public List<Interface> interfaces(Predicate<Interface> filter) {
        return cache.table(Interface.TABLE_NAME).rows().stream()
                .map(Interface::fromRow)
                .filter(filter)
                .toList();
    }

    /** The bridge's ports (those the cache has). */
    public List<Port> ports(Bridge bridge) {
        return bridge.ports().stream()
                .flatMap(u -> cache.table(Port.TABLE_NAME).get(u).stream())
                .map(Port::fromRow)
                .toList();
    }

    /** The interfaces of the bridge's ports. */
    public List<Interface> interfaces(Bridge bridge) {
        return ports(bridge).stream()
                .flatMap(p -> p.interfaces().stream())
                .flatMap(u -> cache.table(Interface.TABLE_NAME).get(u).stream())
                .map(Interface::fromRow)
                .toList();
    }

    /** The bridge holding the port of that name, as {@code ovs-vsctl port-to-br}. */
    public Optional<Bridge> bridgeOfPort(String port) {
        return port(port)
                .flatMap(p ->
                        cache
                                .table(Bridge.TABLE_NAME)
                                .select(r -> Bridge.fromRow(r).ports().contains(p.uuid()))
                                .stream()
                                .findFirst()
                                .map(Bridge::fromRow));
    }

    /**
     * Creates the {@code Open_vSwitch} row when the database has none, as {@code ovs-vsctl init} (and any ovs-vsctl
     * write) does; ovs-vswitchd and ovn-controller read their settings from it.
     */
    public void initialize() {
        if (root().isEmpty()) {
            transact(List.of(Ops.insert(OpenVSwitch.TABLE_NAME, Map.of())));
        }
    }

    /** Builds operations from this database's current rows. */
    public ConfDbOps ops() {
        return new ConfDbOps(this);
    }

    /**
     * Applies the operations in one transaction and returns without waiting for ovs-vswitchd (as {@code ovs-vsctl
     * --no-wait}); none: nothing is sent.
     */
    public TransactionResult transact(List<? extends Operation> ops) {
        if (ops.isEmpty()) {
            return new TransactionResult(List.of(), Map.of());
        }
        return client.transact(DATABASE, ops);
    }

    /**
     * Applies the operations in one transaction that also increments {@code next_cfg}, then waits until ovs-vswitchd
     * reports (in {@code cur_cfg}) that it has applied it, as ovs-vsctl does by default. No operations: nothing is sent
     * and nothing awaited (ovs-vsctl too waits only when it changed something).
     *
     * @throws IllegalStateException when ovs-vswitchd does not apply the change within the timeout
     */
    public TransactionResult transactAndWait(List<? extends Operation> ops) {
        if (ops.isEmpty()) {
            return new TransactionResult(List.of(), Map.of());
        }
        OpenVSwitch root = root().orElseThrow(() -> new IllegalStateException("no Open_vSwitch row in " + socket));
        List<Condition> theRoot = List.of(Condition.uuid(root.uuid()));
        List<Operation> all = new ArrayList<>(ops);
        all.add(Ops.mutate(OpenVSwitch.TABLE_NAME, theRoot, Mutation.add(OpenVSwitch.NEXT_CFG, 1L)));
        all.add(Ops.select(OpenVSwitch.TABLE_NAME, theRoot, List.of(OpenVSwitch.NEXT_CFG)));
        TransactionResult result = client.transact(DATABASE, all);
        long next = result.get(all.size() - 1) instanceof OperationResult.Selected(List<Row> rows) && !rows.isEmpty()
                ? OpenVSwitch.fromRow(rows.getFirst()).nextCfg()
                : root.nextCfg() + 1;
        if (!await(() -> root().map(r -> r.curCfg() >= next).orElse(false), timeout)) {
            throw new IllegalStateException(
                    "ovs-vswitchd did not apply configuration " + next + " within " + timeout + " (cur_cfg "
                            + root().map(OpenVSwitch::curCfg).orElse(0L) + "; is it running on " + socket + "?)");
        }
        return result;
    }

    /** Waits until the interface of that name exists and meets {@code condition}; false on timeout. */
    public boolean awaitInterface(String name, Predicate<Interface> condition, Duration timeout) {
        return await(() -> iface(name).filter(condition).isPresent(), timeout);
    }

    /** Waits until {@code done} holds, checking it after each update of the cache; false on timeout. */
    private boolean await(BooleanSupplier done, Duration bound) {
        Object updated = new Object();
        CacheListener wake = update -> {
            synchronized (updated) {
                updated.notifyAll();
            }
        };
        cache.addListener(wake);
        try {
            long deadline = System.nanoTime() + bound.toNanos();
            synchronized (updated) {
                while (!done.getAsBoolean()) {
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        return false;
                    }
                    // bounded: a reconnect's resync may replace the cache without a listener call we could miss
                    updated.wait(Math.min(left, 200));
                }
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            cache.removeListener(wake);
        }
    }

    @Override
    public void close() {
        close(cache, client);
    }
}
