package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random add / take / done sequences keep the queue's promises. */
class WorkQueuePropertyTest {

    /** One step: add key (0..3), take the next key, or finish the oldest key being processed. */
    record Step(int kind, int key) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.integers()
                .between(0, 2)
                .flatMap(kind -> Arbitraries.integers().between(0, 3).map(key -> new Step(kind, key)))
                .list()
                .ofMaxSize(60);
    }

    @Property(tries = 300)
    void neverHandsOutAKeyTwiceAtOnceNorLosesAnAdd(@ForAll("steps") List<Step> steps) throws Exception {
        try (WorkQueue<Integer> queue = new WorkQueue<>("property", ControllerMetrics.NONE)) {
            List<Integer> processing = new ArrayList<>();
            // keys added after they were last handed out: each must be handed out again
            Set<Integer> owed = new HashSet<>();
            for (Step step : steps) {
                switch (step.kind()) {
                    case 0 -> {
                        queue.add(step.key());
                        owed.add(step.key());
                    }
                    case 1 -> takeIfAny(queue, processing, owed);
                    default -> {
                        if (!processing.isEmpty()) {
                            queue.done(processing.removeFirst());
                        }
                    }
                }
                assertThat(queue.depth()).isLessThanOrEqualTo(4);
            }
            // drain: finish everything in flight, then take until empty
            while (!processing.isEmpty() || queue.depth() > 0) {
                if (!processing.isEmpty()) {
                    queue.done(processing.removeFirst());
                }
                takeIfAny(queue, processing, owed);
            }
            assertThat(owed).as("every add is followed by a hand-out").isEmpty();
            assertThat(queue.isIdle()).isTrue();
        }
    }

    private static void takeIfAny(WorkQueue<Integer> queue, List<Integer> processing, Set<Integer> owed)
            throws InterruptedException {
        if (queue.depth() == 0) {
            return;
        }
        int key = queue.take().orElseThrow();
        assertThat(processing).as("a key is never given to two workers at once").doesNotContain(key);
        processing.add(key);
        owed.remove(key);
    }
}
