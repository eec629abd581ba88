package io.kovn.controller.clustermanager;

import io.kovn.controller.ipam.IndexAllocator;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Node subnets of the configured cluster networks: the lowest free subnet of the first network of a family that has
 * one. Not thread-safe: {@link NodeAllocator} synchronizes.
 */
final class SubnetAllocator {
    private static final long MAX_INDEX = Long.MAX_VALUE - 1;

    private final List<ClusterNetwork> networks;
    private final List<IndexAllocator> pools = new ArrayList<>();

    SubnetAllocator(List<ClusterNetwork> networks) {
        this.networks = List.copyOf(networks);
        for (ClusterNetwork n : this.networks) {
            BigInteger last = n.subnetCount().subtract(BigInteger.ONE).min(BigInteger.valueOf(MAX_INDEX));
            pools.add(new IndexAllocator(0, last.longValueExact()));
        }
        for (int i = 0; i < this.networks.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (this.networks.get(i).cidr().overlaps(this.networks.get(j).cidr())) {
                    throw new IllegalArgumentException(
                            "cluster networks overlap: " + this.networks.get(j) + " and " + this.networks.get(i));
                }
            }
        }
    }

    /** The families the cluster has, IPv4 first. */
    List<IpFamily> families() {
        return networks.stream().map(ClusterNetwork::family).distinct().sorted().toList();
    }

    /** The lowest free subnet of {@code family}, taken; empty when every network of the family is full. */
    Optional<IpPrefix> allocate(IpFamily family) {
        for (int i = 0; i < networks.size(); i++) {
            if (networks.get(i).family() != family) {
                continue;
            }
            OptionalLong index = pools.get(i).allocate();
            if (index.isPresent()) {
                return Optional.of(networks.get(i).subnet(index.getAsLong()));
            }
        }
        return Optional.empty();
    }

    /** Takes a specific subnet; false when it is not a node subnet of a cluster network or is taken. */
    boolean reserve(IpPrefix subnet) {
        for (int i = 0; i < networks.size(); i++) {
            long index = networks.get(i).indexOf(subnet);
            if (index >= 0) {
                return pools.get(i).reserve(index);
            }
        }
        return false;
    }

    /** Frees a subnet (no-op when it is not one of ours). */
    void release(IpPrefix subnet) {
        for (int i = 0; i < networks.size(); i++) {
            long index = networks.get(i).indexOf(subnet);
            if (index >= 0) {
                pools.get(i).release(index);
            }
        }
    }

    /** Human-readable description of the networks of a family, for exhaustion events. */
    String describe(IpFamily family) {
        return networks.stream()
                .filter(n -> n.family() == family)
                .map(ClusterNetwork::toString)
                .toList()
                .toString();
    }
}
