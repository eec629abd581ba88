package io.kovn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /proc/<pid>/stat} says of a process's CPU so far: user and system time in ticks (Linux's USER_HZ of 100,
 * so 10 ms each) and its minor page faults.
 */
record ProcStat(long userTicks, long systemTicks, long minorFaults) {
    static ProcStat of(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // after the name (which may hold spaces): minflt is the 8th field (10th in all), utime the 12th, stime the 13th
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new ProcStat(Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[7]));
    }
}
