package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SandboxControlTest {

    @Test
    void theDaemonRunsWithTheLaunchersJitClassCacheAndLoggingOptions() {
        List<String> launcher = List.of(
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "-Xlog:disable",
                "-Xlog:all=warning:stderr",
                "-XX:AOTCache=/k/cli/target/kovn.aot",
                "-XX:TieredStopAtLevel=1",
                "-Dkovn.root=/k",
                "-Xmx4g",
                "-Dkovn.ovsdb.largeMessageNice=0",
                "-agentlib:jdwp=transport=dt_socket");

        assertThat(SandboxControl.daemonJvmOptions(launcher))
                .containsExactly(
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xlog:disable",
                        "-Xlog:all=warning:stderr",
                        "-XX:AOTCache=/k/cli/target/kovn.aot",
                        "-XX:TieredStopAtLevel=1",
                        "-Dkovn.ovsdb.largeMessageNice=0");
    }

    @Test
    void aJvmStartedWithoutThemPassesNone() {
        assertThat(SandboxControl.daemonJvmOptions(List.of("-Xmx2g", "-Dkovn.root=/k")))
                .isEmpty();
    }
}
