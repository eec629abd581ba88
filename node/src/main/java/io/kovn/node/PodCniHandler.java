package io.kovn.node;

import io.kovn.node.cni.CniConfig;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.plumbing.PlumbedInterface;
import io.kovn.node.plumbing.PlumbingCheck;
import io.kovn.node.plumbing.PlumbingException;
import io.kovn.node.plumbing.PodInterfaceSpec;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent's answer to CNI calls: ADD waits for the pod's pod-networks annotation and for the
 * zone's policies to know those addresses ({@link PodAddressBarrier}), then plumbs; DEL unplumbs (idempotently); CHECK compares the wiring with the annotation; STATUS says
 * whether the integration bridge is there.
 */
public final class PodCniHandler implements CniHandler {
    private static final Logger LOG = LoggerFactory.getLogger(PodCniHandler.class);
    /** kovn code: the pod could not be wired (the message says which step failed). */
    public static final int PLUMBING_FAILED = 101;
    /** kovn code: CHECK found the wiring broken (the details list every problem). */
    public static final int CHECK_FAILED = 102;

    private final NodeAgentConfig config;
    private final PodNetworksWatch podNetworks;
    private final PodPlumber plumber;
    private final PodAddressBarrier policies;

    PodCniHandler(NodeAgentConfig config, PodNetworksWatch podNetworks, PodPlumber plumber, PodAddressBarrier policies) {
        this.config = config;
        this.podNetworks = podNetworks;
        this.plumber = plumber;
        this.policies = policies;
    }

    @Override
    public CniResult add(CniRequest request) throws CniException {
        PodNetwork network;
        try {
            network = podNetworks.await(request.pod().namespace(), request.pod().name(), request.pod().uid(),
                    config.podNetworksTimeout());
        } catch (TimeoutException e) {
            throw new CniException(CniException.TRY_AGAIN_LATER, "pod annotation not found",
                    "no k8s.ovn.org/pod-networks on pod " + request.pod() + " after " + config.podNetworksTimeout());
        } catch (IllegalArgumentException e) {
            throw new CniException(PLUMBING_FAILED, "invalid pod-networks annotation", e.getMessage());
        }
        awaitPolicies(request, network);
        try {
            PlumbedInterface plumbed = plumber.add(spec(request, network));
            return result(plumbed, network, request.mtu() > 0 ? request.mtu() : config.defaultMtu());
        } catch (PlumbingException e) {
            throw new CniException(PLUMBING_FAILED, "pod plumbing failed", e.getMessage());
        }
    }

    /**
     * Before the pod has an interface (and so before its first packet), the zone's policies must have
     * its addresses; past the barrier's bound the pod is wired anyway, with a warning.
     */
    private void awaitPolicies(CniRequest request, PodNetwork network) throws CniException {
        List<String> ips = network.ipAddresses().stream().map(p -> IpLiterals.format(p.address())).toList();
        long t0 = System.nanoTime();
        try {
            if (!policies.await(request.pod(), ips)) {
                LOG.warn("CNI ADD {}: the zone's policies do not show {} after {} ms; wiring the pod anyway, a Deny naming it"
                        + " may miss its first packets", request.pod(), ips, (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CniException(CniException.TRY_AGAIN_LATER, "interrupted", "waiting for the zone's policies of " + request.pod());
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
        PodNetwork network = podNetworks.current(request.pod().namespace(), request.pod().name())
                .orElseThrow(() -> new CniException(CHECK_FAILED, "pod annotation not found",
                        "pod " + request.pod() + " has no k8s.ovn.org/pod-networks"));
        if (request.netns().isEmpty()) {
            throw new CniException(CniException.INVALID_ENVIRONMENT_VARIABLES, "CNI_NETNS is required for CHECK");
        }
        if (plumber.check(spec(request, network)) instanceof PlumbingCheck.Broken broken) {
            throw new CniException(CHECK_FAILED, "pod plumbing is broken", String.join("; ", broken.problems()));
        }
    }

    @Override
    public void status() throws CniException {
        if (!config.vsctl().tryRun("br-exists", config.ovs().integrationBridge()).ok()) {
            throw new CniException(CniException.PLUGIN_NOT_AVAILABLE, "integration bridge missing",
                    config.ovs().integrationBridge() + " does not exist in " + config.vsctl().dbSocket());
        }
    }

    /** Removes the wiring of every container the runtime no longer lists. */
    @Override
    public void gc(List<CniConfig.Attachment> valid) throws CniException {
        Set<String> keep = valid.stream().map(CniConfig.Attachment::containerId).collect(Collectors.toSet());
        try {
            for (Map.Entry<String, String> e : plumber.plumbedContainers().entrySet()) {
                if (!keep.contains(e.getValue())) {
                    plumber.del(e.getValue(), null, null);
                }
            }
        } catch (RuntimeException e) {
            throw new CniException(PLUMBING_FAILED, "garbage collection failed", e.getMessage());
        }
    }

    /** The plumbing spec for a CNI request and the pod's annotation (pure). */
    PodInterfaceSpec spec(CniRequest request, PodNetwork network) {
        return new PodInterfaceSpec(request.pod().namespace(), request.pod().name(),
                request.pod().uid().isEmpty() ? null : request.pod().uid(), request.containerId(),
                Netns.atPath(Path.of(request.netns())), request.ifName().isEmpty() ? "eth0" : request.ifName(),
                network.macAddress(),
                network.ipAddresses().stream().map(Object::toString).toList(),
                network.gatewayIps().stream().map(IpLiterals::format).toList(),
                network.routes().stream().map(r -> new PodInterfaceSpec.PodRoute(r.dest().toString(),
                        IpLiterals.format(r.nextHop()))).toList(),
                request.mtu() > 0 ? request.mtu() : config.defaultMtu());
    }

    /** Host veth first, pod interface second; addresses on the pod interface (pure). */
    static CniResult result(PlumbedInterface p, PodNetwork network, int mtu) {
        List<CniResult.Interface> interfaces = List.of(
                new CniResult.Interface(p.hostInterface(), p.hostMac(), "", mtu),
                new CniResult.Interface(p.podInterface(), p.podMac(), p.sandbox(), mtu));
        List<CniResult.IpConfig> ips = new ArrayList<>();
        for (var prefix : network.ipAddresses()) {
            String gateway = network.gatewayIps().stream()
                    .filter(g -> g.getAddress().length == prefix.address().getAddress().length)
                    .map(IpLiterals::format).findFirst().orElse("");
            ips.add(new CniResult.IpConfig(prefix.toString(), gateway, 1));
        }
        List<CniResult.Route> routes = network.routes().stream()
                .map(r -> new CniResult.Route(r.dest().toString(), IpLiterals.format(r.nextHop()))).toList();
        return new CniResult(interfaces, ips, routes, CniResult.Dns.EMPTY);
    }
}
