package io.kovn.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovsdb.schema.SchemaVersion;
import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What connect() checks: schema versions, endpoints, and TLS with PEM files. */
@Tag("real")
class ConnectCheckTest {

    @Test
    void refusesAServerWhoseSchemaIsIncompatible() {
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly())) {
            assertThatThrownBy(() -> OvsdbClient.builder()
                            .endpoint(ovn.nb().unixEndpoint())
                            .expect("OVN_Northbound", "7.12.0")
                            .connect())
                    .isInstanceOfSatisfying(SchemaMismatchException.class, e -> {
                        assertThat(e.actual()).isEqualTo(new SchemaVersion(7, 11, 0));
                        assertThat(e)
                                .hasMessageContaining(
                                        "OVN_Northbound has schema version 7.11.0 but this client needs 7.x with x >= 12");
                    });
            assertThatThrownBy(() -> OvsdbClient.builder()
                            .endpoint(ovn.nb().unixEndpoint())
                            .expect("OVN_Northbound", "6.0.0")
                            .connect())
                    .isInstanceOf(SchemaMismatchException.class);
            try (OvsdbClient ok = OvsdbClient.builder()
                    .endpoint(ovn.nb().unixEndpoint())
                    .expect("OVN_Northbound", "7.3.0")
                    .connect()) {
                assertThat(ok.isConnected()).isTrue();
            }
        }
    }

    @Test
    void failsClearlyWhenNothingListens(@TempDir Path dir) {
        assertThatThrownBy(() -> OvsdbClient.builder()
                        .endpoint("unix:" + dir.resolve("none.sock"))
                        .connect())
                .isInstanceOf(ConnectionException.class)
                .hasMessageContaining("cannot connect to [unix:");
        assertThatThrownBy(() -> OvsdbClient.builder().endpoint("http://x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void connectsOverTlsWithPemFilesAndRefusesAnUntrustedServer(@TempDir Path dir) {
        Pki.ca(dir, "ca");
        Pki.signed(dir, "ca", "server");
        Pki.signed(dir, "ca", "client");
        Pki.ca(dir, "rogue");
        var ssl = new OvsdbServerProcess.Ssl(
                dir.resolve("server-key.pem"), dir.resolve("server-cert.pem"), dir.resolve("ca-cert.pem"));
        try (OvnDatabases ovn =
                OvnDatabases.start(new OvnDatabases.Config(false, false, new OvsdbServerProcess.Options(false, ssl)))) {
            TlsFiles good = new TlsFiles(
                    dir.resolve("client-key.pem"), dir.resolve("client-cert.pem"), dir.resolve("ca-cert.pem"));
            try (OvsdbClient c = OvsdbClient.builder()
                    .endpoint(ovn.nb().sslEndpoint())
                    .tls(good)
                    .expect("OVN_Northbound", "7.11.0")
                    .connect()) {
                assertThat(c.listDbs()).contains("OVN_Northbound");
            }
            TlsFiles wrongCa = new TlsFiles(
                    dir.resolve("client-key.pem"), dir.resolve("client-cert.pem"), dir.resolve("rogue-cert.pem"));
            assertThatThrownBy(() -> OvsdbClient.builder()
                            .endpoint(ovn.nb().sslEndpoint())
                            .tls(wrongCa)
                            .connect())
                    .isInstanceOf(ConnectionException.class);
        }
    }

    /** A throwaway PKI made with openssl. */
    static final class Pki {
        static void ca(Path dir, String name) {
            openssl(
                    dir,
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-days",
                    "2",
                    "-subj",
                    "/CN=" + name,
                    "-keyout",
                    name + "-key.pem",
                    "-out",
                    name + "-cert.pem");
        }

        static void signed(Path dir, String ca, String name) {
            openssl(
                    dir,
                    "req",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-subj",
                    "/CN=" + name,
                    "-keyout",
                    name + "-key.pem",
                    "-out",
                    name + "-req.pem");
            openssl(
                    dir,
                    "x509",
                    "-req",
                    "-in",
                    name + "-req.pem",
                    "-CA",
                    ca + "-cert.pem",
                    "-CAkey",
                    ca + "-key.pem",
                    "-CAcreateserial",
                    "-days",
                    "2",
                    "-out",
                    name + "-cert.pem");
        }

        private static void openssl(Path dir, String... args) {
            List<String> argv =
                    new ArrayList<>(List.of("sh", "-c", "cd \"$0\" && exec openssl \"$@\"", dir.toString()));
            argv.addAll(List.of(args));
            Tools.run(argv);
        }
    }
}
