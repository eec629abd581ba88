package io.kovn.sandbox.netpol;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Prober.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReachabilityTest {
    static final List<String> PODS = List.of("x/a", "x/b", "y/a");
    static final Prober.Result DENIED = new Prober.Result(Verdict.DENIED, null);

    static Prober.Result answer(String pod) {
        return new Prober.Result(Verdict.ALLOWED, pod.substring(pod.indexOf('/') + 1));
    }

    @Test
    void theDiagonalIsLeftOutAndNothingObservedIsAMismatch() {
        Reachability r = Reachability.expect("tcp/80", PODS, (from, to) -> true);
        assertThat(r.expected()).hasSize(6).doesNotContainKey(Reachability.key("x/a", "x/a"));
        assertThat(r.mismatches()).hasSize(6);
    }

    @Test
    void anAllowedFlowMustBeAnsweredByThePodItWasSentTo() {
        Reachability r = Reachability.expect("tcp/80", List.of("x/a", "x/b"), (from, to) -> true)
                .observe(Map.of(
                        Reachability.key("x/a", "x/b"), answer("x/b"), Reachability.key("x/b", "x/a"), answer("x/b")));
        assertThat(r.mismatches()).containsExactly(Reachability.key("x/b", "x/a"));
    }

    @Test
    void aDeniedFlowMustTimeOutNotBeRefused() {
        Reachability r = Reachability.expect("udp/53", List.of("x/a", "y/a"), (from, to) -> !to.equals("y/a"))
                .observe(Map.of(
                        Reachability.key("x/a", "y/a"),
                        new Prober.Result(Verdict.REFUSED, null),
                        Reachability.key("y/a", "x/a"),
                        answer("x/a")));
        assertThat(r.mismatches()).containsExactly(Reachability.key("x/a", "y/a"));
        r = r.observe(Map.of(Reachability.key("x/a", "y/a"), DENIED));
        assertThat(r.mismatches()).isEmpty();
    }

    @Test
    void theRenderingShowsWhatWasSeenInWrongCellsOnly() {
        Reachability r = Reachability.expect("tcp/80", PODS, (from, to) -> !to.startsWith("y/"))
                .observe(Map.of(
                        Reachability.key("x/a", "x/b"), answer("x/b"),
                        Reachability.key("x/a", "y/a"), answer("y/a"),
                        Reachability.key("x/b", "x/a"), DENIED,
                        Reachability.key("x/b", "y/a"), DENIED,
                        Reachability.key("y/a", "x/a"), answer("x/a")));
        assertThat(r.render().lines().map(String::stripTrailing))
                .containsExactly(
                        "tcp/80 (rows: from, columns: to; . allowed, x denied; wrong cells show what was seen: A allowed, D denied, R refused)",
                        "     x/a x/b y/a",
                        "x/a  -   .   A",
                        "x/b  D   -   x",
                        "y/a  .   ?   -",
                        "x/a -> y/a: allowed (a)",
                        "x/b -> x/a: denied (timeout)",
                        "y/a -> x/b: not probed");
    }
}
