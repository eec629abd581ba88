package io.kovn.policy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.policy.model.PriorityAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class AnpPrioritiesTest {

    @Test
    void prioritiesBelow100UseTheReferenceFormula() {
        var result = AnpPriorities.assign(new TreeMap<>(Map.of(34, 6, 0, 1, 99, 100)), PriorityAssignment.EMPTY);
        assertThat(result.aclPriority(34, 0)).isEqualTo(26600);
        assertThat(result.aclPriority(34, 5)).isEqualTo(26595);
        assertThat(result.aclPriority(0, 0)).isEqualTo(30000);
        assertThat(result.aclPriority(99, 99)).isEqualTo(20001);
        assertThat(result.unplaced()).isEmpty();
        assertThat(result.assignment().bands()).isEmpty();
    }

    @Test
    void prioritiesFrom100UpAreBelowEveryFormulaBandAndKeepTheirOrder() {
        var result = AnpPriorities.assign(
                new TreeMap<>(Map.of(99, 100, 100, 20, 500, 20, 1000, 100)), PriorityAssignment.EMPTY);
        assertThat(result.aclPriority(100, 0)).isLessThan(result.aclPriority(99, 99));
        assertThat(result.aclPriority(100, 19)).isGreaterThan(result.aclPriority(500, 0));
        assertThat(result.aclPriority(500, 19)).isGreaterThan(result.aclPriority(1000, 0));
        assertThat(result.aclPriority(1000, 99)).isGreaterThanOrEqualTo(AnpPriorities.PACKED_BOTTOM);
    }

    @Test
    void rulesThatCannotFitAreReportedNotDropped() {
        TreeMap<Integer, Integer> sizes = new TreeMap<>();
        for (int p = 100; p <= 1000; p++) {
            sizes.put(p, 100); // 901 * 100 rules > 20000 priorities
        }
        sizes.put(50, 101); // more than a formula band holds
        var result = AnpPriorities.assign(sizes, PriorityAssignment.EMPTY);
        assertThat(result.unplaced()).contains(50, 1000).doesNotContain(100);
        assertThat(result.topBySpecPriority().keySet()).doesNotContainAnyElementsOf(result.unplaced());
        assertThat(result.topBySpecPriority().size() + result.unplaced().size()).isEqualTo(sizes.size());
        assertOrdered(result, sizes);
    }

    @Test
    void aNewPolicyIsPlacedBetweenItsNeighboursWithoutMovingThem() {
        var first = AnpPriorities.assign(new TreeMap<>(Map.of(100, 10, 200, 10)), PriorityAssignment.EMPTY);
        var second = AnpPriorities.assign(new TreeMap<>(Map.of(100, 10, 150, 10, 200, 10)), first.assignment());
        assertThat(second.topBySpecPriority().get(100))
                .isEqualTo(first.topBySpecPriority().get(100));
        assertThat(second.topBySpecPriority().get(200))
                .isEqualTo(first.topBySpecPriority().get(200));
        assertOrdered(second, new TreeMap<>(Map.of(100, 10, 150, 10, 200, 10)));
    }

    @Test
    void growingABandThatStillFitsKeepsItsTop() {
        var first = AnpPriorities.assign(new TreeMap<>(Map.of(100, 10, 200, 10)), PriorityAssignment.EMPTY);
        var second = AnpPriorities.assign(new TreeMap<>(Map.of(100, 40, 200, 10)), first.assignment());
        assertThat(second.topBySpecPriority()).isEqualTo(first.topBySpecPriority());
    }

    @Property(tries = 300)
    void bandsAreDisjointInsideTheRegionAndOrderedByPriority(
            @ForAll("sizes") TreeMap<Integer, Integer> sizes,
            @ForAll("garbage") TreeMap<Integer, Integer> previousTops) {
        TreeMap<Integer, PriorityAssignment.Band> bands = new TreeMap<>();
        previousTops.forEach((p, top) -> bands.put(p, new PriorityAssignment.Band(top, 1 + top % 50)));
        var result = AnpPriorities.assign(sizes, new PriorityAssignment(bands));
        assertOrdered(result, sizes);
        assertThat(result.topBySpecPriority().size() + result.unplaced().size()).isEqualTo(sizes.size());
    }

    @Property(tries = 300)
    void addingAPolicyKeepsEveryOtherBand(
            @ForAll("sizes") TreeMap<Integer, Integer> sizes,
            @ForAll @IntRange(min = 100, max = 1000) int added,
            @ForAll @IntRange(min = 1, max = 100) int addedSize) {
        sizes.remove(added);
        var before = AnpPriorities.assign(sizes, PriorityAssignment.EMPTY);
        TreeMap<Integer, Integer> more = new TreeMap<>(sizes);
        more.put(added, addedSize);
        var after = AnpPriorities.assign(more, before.assignment());
        assertOrdered(after, more);
        for (var e : before.topBySpecPriority().entrySet()) {
            assertThat(after.topBySpecPriority().get(e.getKey()))
                    .as("band of %s", e.getKey())
                    .isEqualTo(e.getValue());
        }
    }

    @Property(tries = 200)
    void removingAPolicyKeepsEveryOtherBand(@ForAll("sizes") TreeMap<Integer, Integer> sizes) {
        var before = AnpPriorities.assign(sizes, PriorityAssignment.EMPTY);
        if (sizes.isEmpty()) {
            return;
        }
        TreeMap<Integer, Integer> fewer = new TreeMap<>(sizes);
        fewer.remove(fewer.firstKey());
        var after = AnpPriorities.assign(fewer, before.assignment());
        for (var e : after.topBySpecPriority().entrySet()) {
            assertThat(e.getValue()).isEqualTo(before.topBySpecPriority().get(e.getKey()));
        }
    }

    @Property(tries = 100)
    void aSequenceOfInsertsKeepsOrderAndMovesOnlyWhenRequired(@ForAll("inserts") List<Integer> inserts) {
        TreeMap<Integer, Integer> sizes = new TreeMap<>();
        PriorityAssignment previous = PriorityAssignment.EMPTY;
        for (int p : inserts) {
            sizes.put(p, 20);
            var result = AnpPriorities.assign(sizes, previous);
            assertOrdered(result, sizes);
            assertThat(result.unplaced()).isEmpty();
            previous = result.assignment();
        }
    }

    @Provide
    Arbitrary<TreeMap<Integer, Integer>> sizes() {
        return Arbitraries.maps(
                        Arbitraries.integers().between(0, 1000),
                        Arbitraries.integers().between(0, 100))
                .ofMaxSize(50)
                .map(TreeMap::new);
    }

    @Provide
    Arbitrary<TreeMap<Integer, Integer>> garbage() {
        return Arbitraries.maps(
                        Arbitraries.integers().between(100, 1000),
                        Arbitraries.integers().between(-5, 32767))
                .ofMaxSize(30)
                .map(TreeMap::new);
    }

    @Provide
    Arbitrary<List<Integer>> inserts() {
        return Arbitraries.integers().between(100, 1000).list().ofMaxSize(200);
    }

    /** Every placed band lies in its region, and a lower spec.priority has strictly higher ACL priorities. */
    static void assertOrdered(AnpPriorities.Result result, SortedMap<Integer, Integer> sizes) {
        List<int[]> bands = new ArrayList<>(); // top, bottom in spec order
        for (var e : result.topBySpecPriority().entrySet()) {
            int size = Math.max(1, sizes.get(e.getKey()));
            int top = e.getValue();
            int bottom = top - size + 1;
            if (e.getKey() <= AnpPriorities.FORMULA_MAX_PRIORITY) {
                assertThat(top).isEqualTo(30000 - 100 * e.getKey());
            } else {
                assertThat(top).isLessThanOrEqualTo(AnpPriorities.PACKED_TOP);
                assertThat(bottom).isGreaterThanOrEqualTo(AnpPriorities.PACKED_BOTTOM);
                assertThat(result.assignment().band(e.getKey())).contains(new PriorityAssignment.Band(top, size));
            }
            bands.add(new int[] {top, bottom});
        }
        for (int i = 1; i < bands.size(); i++) {
            assertThat(bands.get(i)[0]).as("band %d below band %d", i, i - 1).isLessThan(bands.get(i - 1)[1]);
        }
    }
}
