package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A connection's reader thread keeps one reader for its lifetime; any other caller gets its own. */
class ValueReaderOwnershipTest {

    @Test
    void insideRunWithOwnCurrentIsOneReaderUntilTheTaskEnds() {
        List<ValueReader> seen = new ArrayList<>();
        ValueReader.runWithOwn(() -> {
            seen.add(ValueReader.current());
            seen.add(ValueReader.current());
        });
        ValueReader.runWithOwn(() -> seen.add(ValueReader.current()));
        assertThat(seen.get(1)).isSameAs(seen.get(0));
        assertThat(seen.get(2)).as("another task (connection), another reader").isNotSameAs(seen.get(0));
    }

    @Test
    void outsideRunWithOwnEveryCallGetsANewReader() {
        assertThat(ValueReader.current()).isNotSameAs(ValueReader.current());
    }

    @Test
    void anotherThreadDoesNotShareTheTasksReader() throws InterruptedException {
        AtomicReference<ValueReader> own = new AtomicReference<>();
        AtomicReference<ValueReader> other = new AtomicReference<>();
        ValueReader.runWithOwn(() -> {
            own.set(ValueReader.current());
            Thread t = Thread.ofPlatform().start(() -> other.set(ValueReader.current()));
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(other.get()).isNotNull().isNotSameAs(own.get());
    }
}
