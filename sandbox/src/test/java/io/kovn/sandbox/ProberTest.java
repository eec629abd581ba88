package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProberTest {

    /** The answer is read from the verdict line, whatever else the probe's merged output holds. */
    @Test
    void theAnswerIsTheVerdictLinesWhateverElseWasPrinted() {
        assertThat(Prober.answer("allowed y/a")).isEqualTo("y/a");
        assertThat(Prober.answer("mount of /sys failed: Device or resource busy\nallowed y/a\n"))
                .isEqualTo("y/a");
        assertThat(Prober.answer("allowed")).isEmpty(); // connected, nothing answered in time
        assertThat(Prober.answer("")).isEmpty();
    }
}
