package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.policy.select.ClusterIndex;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TranslationMemoTest {

    /** An input that counts how often it is compared by equals (a rule's shape, say). */
    private record Counted(String value, AtomicInteger comparisons) {
        @Override
        public boolean equals(Object o) {
            comparisons.incrementAndGet();
            return o instanceof Counted c && c.value.equals(value);
        }

        @Override
        public int hashCode() {
            return value.hashCode();
        }
    }

    @Test
    void equalInputsAreReusedAndAfterwardsComparedByPointer() {
        TranslationMemo memo = TranslationMemo.over(new ClusterIndex(List.of(), List.of(), List.of()));
        AtomicInteger computed = new AtomicInteger();
        AtomicInteger comparisons = new AtomicInteger();
        Counted first = new Counted("rule", comparisons);
        assertThat(memo.<Integer>get("k", Arrays.asList(first), computed::incrementAndGet))
                .isEqualTo(1);

        // an equal input that is another object (the informer's new copy after a status write)
        Counted copy = new Counted("rule", comparisons);
        assertThat(memo.<Integer>get("k", Arrays.asList(copy), computed::incrementAndGet))
                .isEqualTo(1);
        assertThat(comparisons).hasValue(1);
        // from now on the copy is what the entry holds: no deep comparison any more
        for (int i = 0; i < 3; i++) {
            assertThat(memo.<Integer>get("k", Arrays.asList(copy), computed::incrementAndGet))
                    .isEqualTo(1);
        }
        assertThat(comparisons).hasValue(1);
        assertThat(memo.<Integer>get("k", Arrays.asList(new Counted("other", comparisons)), computed::incrementAndGet))
                .isEqualTo(2);
        assertThat(memo.hits()).isEqualTo(4);
        assertThat(memo.misses()).isEqualTo(2);
    }
}
