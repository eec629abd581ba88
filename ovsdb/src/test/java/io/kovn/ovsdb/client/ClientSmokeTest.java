package io.kovn.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.runtime.OvsdbServerProcess;
import io.kovn.runtime.testing.OvnDatabases;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

class ClientSmokeTest {
    @AutoClose
    static OvnDatabases ovn = OvnDatabases.start(new OvnDatabases.Config(false, false, OvsdbServerProcess.Options.withTcp()));

    @Test
    void listsDatabasesOverUnixAndTcp() {
        try (OvsdbClient c = OvsdbClient.builder().endpoint(ovn.nb().unixEndpoint()).connect()) {
            assertThat(c.listDbs()).contains("OVN_Northbound");
        }
        try (OvsdbClient c = OvsdbClient.builder().endpoint(ovn.nb().tcpEndpoint()).connect()) {
            assertThat(c.getSchema("OVN_Northbound").tables()).containsKey("ACL");
        }
    }
}
