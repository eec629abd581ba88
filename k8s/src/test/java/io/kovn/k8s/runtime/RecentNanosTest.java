package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RecentNanosTest {

    @Test
    void keepsTheLastValuesOldestFirstOnceFull() {
        RecentNanos recent = new RecentNanos(40);
        assertThat(recent.toArray()).isEmpty();
        LongStream.range(0, 25).forEach(recent::add);
        assertThat(recent.toArray()).containsExactly(LongStream.range(0, 25).toArray());
        LongStream.range(25, 100).forEach(recent::add);
        assertThat(recent.toArray()).containsExactly(LongStream.range(60, 100).toArray());
    }
}
