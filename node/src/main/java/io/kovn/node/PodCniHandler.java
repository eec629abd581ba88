package io.kovn.node;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.node.cni.CniConfig;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.plumbing.PlumbedInterface;
import io.kovn.node.plumbing.PlumbingCheck;
import io.kovn.node.plumbing.PlumbingException;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent's answer to CNI calls: ADD waits for the pod's pod-networks annotation and for the zone's policies to
 * know those addresses ({@link PodAddressBarrier}), then plumbs; DEL unplumbs (idempotently); CHECK compares the wiring
 * with the annotation; STATUS says whether the integration bridge is there. A pod on a primary user-defined network has
 * two interfaces ({@link PodInterfaces}); every command handles both.
 */
public final class PodCniHandler implements CniHandler {
    private static final Logger LOG = LoggerFactory.getLogger(PodCniHandler.class);
    /** kovn code: the pod could not be wired (the message says which step failed). */
    public static final int PLUMBING_FAILED = 101;
    /** kovn code: CHECK found the wiring broken (the details list every problem). */
    public static final int CHECK_FAILED = 102;

    /** The largest MTU a veth takes: a network may declare 65,536 (the API's maximum, as in the reference). */
    static final int MAX_LINK_MTU = 65_535;

    private final NodeAgentConfig config;
    private final PodNetworksReconciler podNetworks;
    private final PodPlumber plumber;
    private final PodAddressBarrier policies;
    private final NetworkMtus mtus;
    private final NodeAgentMetrics metrics;

    PodCniHandler(
            NodeAgentConfig config,
            PodNetworksReconciler podNetworks,
            PodPlumber plumber,
            PodAddressBarrier policies,
            NetworkMtus mtus,
            NodeAgentMetrics metrics) {
        this.config = config;
        this.podNetworks = podNetworks;
        this.plumber = plumber;
        this.policies = policies;
        this.mtus = mtus;
        this.metrics = metrics;
    }

    @Override
    public CniResult add(CniRequest request) throws CniException {
        PodNetworks networks;
        try {
            networks = podNetworks.await(
                    request.pod().namespace(),
                    request.pod().name(),
                    request.pod().uid(),
                    config.podNetworksTimeout());
        } catch (TimeoutException e) {
            throw new CniException(
                    CniException.TRY_AGAIN_LATER,
                    "pod annotation not found",
                    "no k8s.ovn.org/pod-networks on pod " + request.pod() + " after " + config.podNetworksTimeout());
        } catch (IllegalArgumentException e) {
            throw new CniException(PLUMBING_FAILED, "invalid pod-networks annotation", e.getMessage());
        }
        List<PodInterfaces.Planned> planned =
                plan(request, networks, mtu(request), primaryMtu(request, networks), PLUMBING_FAILED);
        awaitPolicies(request, planned.getLast().network());
        try {
            List<PlumbedInterface> plumbed = plumber.addAll(
                    planned.stream().map(PodInterfaces.Planned::spec).toList());
            reportReady(request);
            return result(
                    plumbed,
                    planned.stream().map(PodInterfaces.Planned::network).toList());
        } catch (PlumbingException e) {
            throw new CniException(PLUMBING_FAILED, "pod plumbing failed", e.getMessage());
        }
    }

    /** How long after its creation the pod got its network (when the cache still has this incarnation). */
    private void reportReady(CniRequest request) {
        podNetworks
                .cached(request.pod().namespace(), request.pod().name())
                .map(Pod::getMetadata)
                .filter(m ->
                        request.pod().uid().isEmpty() || request.pod().uid().equals(m.getUid()))
                .map(ObjectMeta::getCreationTimestamp)
                .ifPresent(created -> {
                    try {
                        Duration since = Duration.between(Instant.parse(created), Instant.now());
                        if (!since.isNegative()) {
                            metrics.podNetworkReady(since);
                        }
                    } catch (DateTimeParseException e) {
                        LOG.debug("pod {}: creationTimestamp {} not understood", request.pod(), created);
                    }
                });
    }

    /**
     * Before the pod has an interface (and so before its first packet), the zone's policies must have its addresses;
     * past the barrier's bound the pod is wired anyway, with a warning. Those of its primary network (the last
     * interface planned: ovn-udn1 for a pod of a primary user-defined network, where policies select it; else eth0).
     */
    private void awaitPolicies(CniRequest request, PodNetwork network) throws CniException {
        List<String> ips = network.ipAddresses().stream()
                .map(p -> IpLiterals.format(p.address()))
                .toList();
        long t0 = System.nanoTime();
        try {
            if (!policies.await(request.pod(), ips)) {
                LOG.warn(
                        "CNI ADD {}: the zone's policies do not show {} after {} ms; wiring the pod anyway, a Deny naming it"
                                + " may miss its first packets",
                        request.pod(),
                        ips,
                        (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CniException(
                    CniException.TRY_AGAIN_LATER, "interrupted", "waiting for the zone's policies of " + request.pod());
        }
    }

    @Override
    public void del(CniRequest request) throws CniException {
        Netns podNetns = request.netns().isEmpty() ? null : Netns.atPath(Path.of(request.netns()));
        try {
            plumber.del(request.containerId(), podNetns, request.ifName().isEmpty() ? "eth0" : request.ifName());
        } catch (RuntimeException e) {
            throw new CniException(PLUMBING_FAILED, "pod unplumbing failed", e.getMessage());
        }
    }

    @Override
    public void check(CniRequest request) throws CniException {
        PodNetworks networks;
        try {
            networks = podNetworks
                    .current(request.pod().namespace(), request.pod().name())
                    .orElseThrow(() -> new CniException(
                            CHECK_FAILED,
                            "pod annotation not found",
                            "pod " + request.pod() + " has no k8s.ovn.org/pod-networks"));
        } catch (IllegalArgumentException e) {
            throw new CniException(CHECK_FAILED, "invalid pod-networks annotation", e.getMessage());
        }
        if (request.netns().isEmpty()) {
            throw new CniException(CniException.INVALID_ENVIRONMENT_VARIABLES, "CNI_NETNS is required for CHECK");
        }
        List<String> problems = new ArrayList<>();
        for (PodInterfaces.Planned p :
                plan(request, networks, mtu(request), primaryMtu(request, networks), CHECK_FAILED)) {
            if (plumber.check(p.spec()) instanceof PlumbingCheck.Broken broken) {
                problems.addAll(broken.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new CniException(CHECK_FAILED, "pod plumbing is broken", String.join("; ", problems));
        }
    }

    @Override
    public void status() throws CniException {
        if (!plumber.bridgeExists()) {
            throw new CniException(
                    CniException.PLUGIN_NOT_AVAILABLE,
                    "integration bridge missing",
                    config.ovs().integrationBridge() + " does not exist in "
                            + config.ovsPaths().dbSocket());
        }
    }

    /** Removes the wiring of every container the runtime no longer lists (each once: it may have two ports). */
    @Override
    public void gc(List<CniConfig.Attachment> valid) throws CniException {
        Set<String> keep = valid.stream().map(CniConfig.Attachment::containerId).collect(Collectors.toSet());
        try {
            for (String containerId : new TreeSet<>(plumber.plumbedContainers().values())) {
                if (!keep.contains(containerId)) {
                    plumber.del(containerId, null, null);
                }
            }
        } catch (RuntimeException e) {
            throw new CniException(PLUMBING_FAILED, "garbage collection failed", e.getMessage());
        }
    }

    private int mtu(CniRequest request) {
        return request.mtu() > 0 ? request.mtu() : config.defaultMtu();
    }

    /** The MTU of the pod's primary user-defined network's interface: the network's own, else the request's. */
    private int primaryMtu(CniRequest request, PodNetworks networks) throws CniException {
        var primary = networks.primaryUserDefined();
        if (primary.isEmpty()) return mtu(request);
        try {
            return mtus.of(request.pod().namespace(), primary.get().getKey())
                    .map(m -> Math.min(m, MAX_LINK_MTU))
                    .orElse(mtu(request));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CniException(
                    CniException.TRY_AGAIN_LATER,
                    "interrupted",
                    "waiting for the MTU of " + primary.get().getKey() + " for " + request.pod());
        }
    }

    /**
     * The pod's interfaces for a CNI request and its annotation (pure); an annotation they cannot be built from is an
     * error with {@code code}, before anything is wired.
     */
    static List<PodInterfaces.Planned> plan(CniRequest request, PodNetworks networks, int mtu, int primaryMtu, int code)
            throws CniException {
        try {
            return PodInterfaces.plan(
                    request.pod(),
                    request.containerId(),
                    Netns.atPath(Path.of(request.netns())),
                    request.ifName().isEmpty() ? "eth0" : request.ifName(),
                    mtu,
                    primaryMtu,
                    networks);
        } catch (IllegalArgumentException e) {
            throw new CniException(code, "invalid pod-networks annotation", e.getMessage());
        }
    }

    /**
     * Per interface the host veth, then the pod interface; each one's addresses point at its pod interface, routes in
     * the interfaces' order (pure).
     *
     * @param networks the annotation entry of each plumbed interface, in the same order
     */
    static CniResult result(List<PlumbedInterface> plumbed, List<PodNetwork> networks) {
        List<CniResult.Interface> interfaces = new ArrayList<>();
        List<CniResult.IpConfig> ips = new ArrayList<>();
        List<CniResult.Route> routes = new ArrayList<>();
        for (int i = 0; i < plumbed.size(); i++) {
            PlumbedInterface p = plumbed.get(i);
            PodNetwork network = networks.get(i);
            interfaces.add(new CniResult.Interface(p.hostInterface(), p.hostMac(), "", p.mtu()));
            interfaces.add(new CniResult.Interface(p.podInterface(), p.podMac(), p.sandbox(), p.mtu()));
            int podIndex = interfaces.size() - 1;
            for (var prefix : network.ipAddresses()) {
                String gateway = network.gatewayIps().stream()
                        .filter(g -> g.getAddress().length == prefix.address().getAddress().length)
                        .map(IpLiterals::format)
                        .findFirst()
                        .orElse("");
                ips.add(new CniResult.IpConfig(prefix.toString(), gateway, podIndex));
            }
            network.routes()
                    .forEach(r -> routes.add(new CniResult.Route(r.dest().toString(), IpLiterals.format(r.nextHop()))));
        }
        return new CniResult(interfaces, ips, routes, CniResult.Dns.EMPTY);
    }
}
