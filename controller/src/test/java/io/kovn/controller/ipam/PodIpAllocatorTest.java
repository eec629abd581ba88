package io.kovn.controller.ipam;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.ipam.PodIpAllocator.Allocation;
import io.kovn.controller.ipam.PodIpAllocator.Reservation;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodIpAllocatorTest {

    @Test
    void skipsNetworkGatewayManagementPortAndBroadcast() {
        PodIpAllocator a = new PodIpAllocator(List.of(IpPrefix.parse("10.244.1.0/29")));
        assertThat(a.gateways()).containsExactly(IpLiterals.parse("10.244.1.1"));
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Allocation r = a.allocate("ns/p" + i);
            if (r instanceof Allocation.Allocated ok) {
                got.add(ok.addresses().getFirst().toString());
            } else {
                got.add(r.toString());
            }
        }
        assertThat(got)
                .containsExactly(
                        "10.244.1.3/29",
                        "10.244.1.4/29",
                        "10.244.1.5/29",
                        "10.244.1.6/29",
                        "Exhausted[subnet=10.244.1.0/29]");
    }

    @Test
    void dualStackIsAllOrNothingAndIdempotent() {
        PodIpAllocator a = new PodIpAllocator(List.of(IpPrefix.parse("10.244.1.0/29"), IpPrefix.parse("fd00::/125")));
        for (int i = 0; i < 3; i++) {
            assertThat(a.allocate("ns/fill" + i)).isInstanceOf(Allocation.Allocated.class);
        }
        Allocation first = a.allocate("ns/a");
        assertThat(first).hasToString("Allocated[addresses=[10.244.1.6/29, fd00::6/125]]");
        assertThat(a.allocate("ns/a")).isEqualTo(first);
        assertThat(a.allocate("ns/b")).isInstanceOf(Allocation.Exhausted.class);
        assertThat(a.pods()).isEqualTo(4);
        a.release("ns/a");
        assertThat(a.allocate("ns/b")).isEqualTo(first);
    }

    @Test
    void reserveRebuildsAndDetectsConflicts() {
        PodIpAllocator a = new PodIpAllocator(List.of(IpPrefix.parse("10.244.1.0/24")));
        assertThat(a.reserve("ns/a", List.of(IpPrefix.parse("10.244.1.9/24"))))
                .isInstanceOf(Reservation.Reserved.class);
        assertThat(a.reserve("ns/b", List.of(IpPrefix.parse("10.244.1.9/24"))))
                .isEqualTo(new Reservation.Conflict(IpPrefix.parse("10.244.1.9/24"), "ns/a"));
        assertThat(a.reserve("ns/c", List.of(IpPrefix.parse("10.244.1.1/24")))).isInstanceOf(Reservation.Invalid.class);
        assertThat(a.reserve("ns/c", List.of(IpPrefix.parse("10.244.1.2/24")))).isInstanceOf(Reservation.Invalid.class);
        assertThat(a.reserve("ns/c", List.of(IpPrefix.parse("10.244.2.5/24")))).isInstanceOf(Reservation.Invalid.class);
        assertThat(a.reserve("ns/c", List.of(IpPrefix.parse("10.244.1.255/24"))))
                .isInstanceOf(Reservation.Invalid.class);
        assertThat(a.allocate("ns/d")).hasToString("Allocated[addresses=[10.244.1.3/24]]");
    }
}
