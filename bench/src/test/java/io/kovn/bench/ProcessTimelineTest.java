package io.kovn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessTimelineTest {
    @Test
    void aBusyProcessShowsItsCpuInItsColumnAndMarksFallInTheirBucket() throws Exception {
        Process idle = new ProcessBuilder("sleep", "5").start();
        try {
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("this JVM", ProcessHandle.current().pid());
            pids.put("sleeper", idle.pid());
            long t0;
            long burnt;
            List<String> lines;
            try (ProcessTimeline timeline = ProcessTimeline.start(pids)) {
                t0 = System.nanoTime();
                long x = 0;
                while (System.nanoTime() - t0 < 400_000_000L) {
                    x += Long.numberOfTrailingZeros(x + System.nanoTime());
                }
                burnt = System.nanoTime();
                assertThat(x).isPositive();
                timeline.close();
                lines = timeline.lines("burn", t0, 100, Map.of("burnt", burnt));
            }
            assertThat(lines.get(0)).startsWith("timeline: burn (per 100 ms");
            assertThat(lines.get(1)).contains("| this JVM | sleeper | idle / steal | marks |");
            List<String> rows = lines.subList(2, lines.size());
            assertThat(rows).hasSizeGreaterThanOrEqualTo(4);
            // this JVM burnt ~400 ms of one core; the sleeper nothing (ticks of 10 ms, so some slack)
            assertThat(rows.stream().mapToInt(r -> column(r, 1)).sum()).isBetween(250, 1_000);
            assertThat(rows.stream().mapToInt(r -> column(r, 2)).sum()).isZero();
            assertThat(rows.stream().filter(r -> r.contains("burnt @")).count()).isOne();
        } finally {
            idle.destroyForcibly().waitFor();
        }
    }

    @Test
    void aProcessThatIsGoneReadsAsNothing() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        try (ProcessTimeline timeline = ProcessTimeline.start(Map.of("gone", gone.pid()))) {
            long t0 = System.nanoTime();
            Thread.sleep(120);
            timeline.close();
            List<String> lines = timeline.lines("gone", t0, 50, Map.of());
            assertThat(lines.subList(2, lines.size()))
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(column(r, 1)).isZero());
        }
    }

    /** The CPU ms of the n-th process column of a timeline row ({@code | ms | cpu [..] | cpu | ...}). */
    private static int column(String row, int n) {
        String cell = row.split("\\|")[n + 1].strip();
        return Integer.parseInt(cell.split("[ \\[]")[0]);
    }
}
