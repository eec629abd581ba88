package io.kovn.ovsdb.rpc;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The calling thread's nice value on Linux, where each thread has its own: read from {@code /proc/thread-self/stat},
 * raised with {@code setpriority(PRIO_PROCESS, tid, nice)}. Java's own thread priorities do not reach the kernel
 * without root, so this is the one way a thread can let other processes' work go first. Raising needs no privilege;
 * lowering it again does, so a thread raised stays raised.
 */
final class ThreadNice {
    static final int MAX = 19;
    private static final int PRIO_PROCESS = 0;
    private static final Optional<MethodHandle> SETPRIORITY = lookup();

    private ThreadNice() {}

    private static Optional<MethodHandle> lookup() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup()
                    .find("setpriority")
                    .map(address -> linker.downcallHandle(
                            address,
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT)));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty(); // not Linux, or native access refused
        }
    }

    /** The calling thread's nice value, if this system shows it. */
    static OptionalInt current() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            // after the command, which is in parentheses and may hold spaces: state is field 3, nice field 19
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalInt.of(Integer.parseInt(fields[19 - 3]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * Raises the calling thread's nice value by {@code increment} (at most to {@value #MAX}).
     *
     * @return the new nice value, or empty when this system does not let the thread change it
     */
    static OptionalInt raise(int increment) {
        OptionalInt now = current();
        if (now.isEmpty() || SETPRIORITY.isEmpty()) {
            return OptionalInt.empty();
        }
        int target = Math.min(MAX, now.getAsInt() + Math.max(0, increment));
        try {
            int rc = (int) SETPRIORITY.get().invokeExact(PRIO_PROCESS, threadId(), target);
            return rc == 0 ? current() : OptionalInt.empty();
        } catch (Throwable e) {
            return OptionalInt.empty();
        }
    }

    /** The kernel's id of the calling thread: {@code /proc/thread-self} links to {@code /proc/<pid>/task/<tid>}. */
    private static int threadId() throws IOException {
        return Integer.parseInt(
                Path.of("/proc/thread-self").toRealPath().getFileName().toString());
    }
}
