package io.kovn.controller.ipam;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.ipam.PodIpAllocator.Allocation;
import io.kovn.controller.ipam.PodIpAllocator.Reservation;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random pod add/delete/restart sequences on a small dual-stack node: no duplicates, no leaks, restart-safe. */
class PodIpAllocatorPropertiesTest {
    private static final List<IpPrefix> SUBNETS =
            List.of(IpPrefix.parse("10.244.3.0/28"), IpPrefix.parse("fd00:3::/124"));
    private static final int CAPACITY = 12; // 16 - network, gateway, management port, broadcast

    /** op: 0..19 add pod, 20..39 delete pod (op-20), 40 restart (rebuild from annotations). */
    @Provide
    Arbitrary<List<Integer>> ops() {
        return Arbitraries.integers().between(0, 40).list().ofMinSize(1).ofMaxSize(120);
    }

    @Property(tries = 300)
    void noDuplicatesNoLeaksRestartSafe(@ForAll("ops") List<Integer> ops) {
        PodIpAllocator ipam = new PodIpAllocator(SUBNETS);
        Map<String, List<IpPrefix>> annotations = new HashMap<>(); // what pods carry
        for (int op : ops) {
            if (op < 20) {
                String pod = "ns/p" + op;
                switch (ipam.allocate(pod)) {
                    case Allocation.Allocated a -> {
                        List<IpPrefix> before = annotations.putIfAbsent(pod, a.addresses());
                        if (before != null) {
                            assertThat(a.addresses()).as("address moved").isEqualTo(before);
                        }
                    }
                    case Allocation.Exhausted e -> assertThat(annotations).hasSize(CAPACITY);
                }
            } else if (op < 40) {
                String pod = "ns/p" + (op - 20);
                annotations.remove(pod);
                ipam.release(pod);
            } else {
                ipam = new PodIpAllocator(SUBNETS);
                for (var e : annotations.entrySet()) {
                    assertThat(ipam.reserve(e.getKey(), e.getValue())).isInstanceOf(Reservation.Reserved.class);
                }
            }
            Set<IpPrefix> seen = new HashSet<>();
            annotations
                    .values()
                    .forEach(list -> list.forEach(
                            ip -> assertThat(seen.add(ip)).as("dup %s", ip).isTrue()));
            // never the network address, the gateway (.1), the management port (.2) or the last address
            seen.forEach(ip -> assertThat(SUBNETS.stream()
                            .filter(s -> s.contains(ip.address()))
                            .findFirst()
                            .orElseThrow()
                            .indexOf(ip.address())
                            .intValue())
                    .as("reserved offset of %s", ip)
                    .isBetween(3, 14));
            assertThat(ipam.snapshot()).isEqualTo(annotations);
        }
        annotations.keySet().forEach(ipam::release);
        for (int i = 0; i < CAPACITY; i++) {
            assertThat(ipam.allocate("fresh/" + i)).isInstanceOf(Allocation.Allocated.class);
        }
        assertThat(ipam.allocate("fresh/over")).isInstanceOf(Allocation.Exhausted.class);
    }
}
