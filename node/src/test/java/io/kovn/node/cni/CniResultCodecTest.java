package io.kovn.node.cni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CniResultCodecTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static final CniResult POD = new CniResult(
            List.of(new CniResult.Interface("eth0", "0a:58:0a:f4:01:03", "/run/netns/p", 1400)),
            List.of(
                    new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 0),
                    new CniResult.IpConfig("fd00::3/64", "", 0)),
            List.of(new CniResult.Route("0.0.0.0/0", "10.244.1.1")),
            null);

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0.3.1 | {\"cniVersion\":\"0.3.1\",\"interfaces\":[{\"name\":\"eth0\",\"mac\":\"0a:58:0a:f4:01:03\",\"sandbox\":\"/run/netns/p\"}],\"ips\":[{\"version\":\"4\",\"interface\":0,\"address\":\"10.244.1.3/24\",\"gateway\":\"10.244.1.1\"},{\"version\":\"6\",\"interface\":0,\"address\":\"fd00::3/64\"}],\"routes\":[{\"dst\":\"0.0.0.0/0\",\"gw\":\"10.244.1.1\"}]}",
                "1.0.0 | {\"cniVersion\":\"1.0.0\",\"interfaces\":[{\"name\":\"eth0\",\"mac\":\"0a:58:0a:f4:01:03\",\"sandbox\":\"/run/netns/p\"}],\"ips\":[{\"interface\":0,\"address\":\"10.244.1.3/24\",\"gateway\":\"10.244.1.1\"},{\"interface\":0,\"address\":\"fd00::3/64\"}],\"routes\":[{\"dst\":\"0.0.0.0/0\",\"gw\":\"10.244.1.1\"}]}",
                "1.1.0 | {\"cniVersion\":\"1.1.0\",\"interfaces\":[{\"name\":\"eth0\",\"mac\":\"0a:58:0a:f4:01:03\",\"mtu\":1400,\"sandbox\":\"/run/netns/p\"}],\"ips\":[{\"interface\":0,\"address\":\"10.244.1.3/24\",\"gateway\":\"10.244.1.1\"},{\"interface\":0,\"address\":\"fd00::3/64\"}],\"routes\":[{\"dst\":\"0.0.0.0/0\",\"gw\":\"10.244.1.1\"}]}"
            })
    void encodesEachVersionsShape(String version, String expected) throws Exception {
        assertThat(CniResultCodec.encode(POD, version)).isEqualTo(JSON.readTree(expected));
    }

    @Test
    void aPodWithTwoInterfacesTiesEachAddressToItsOwnInterface() throws Exception {
        CniResult twoInterfaces = new CniResult(
                List.of(
                        new CniResult.Interface("0123456789abcde", "aa:bb:cc:dd:ee:01", "", 1400),
                        new CniResult.Interface("eth0", "0a:58:0a:f4:00:03", "/run/netns/p", 1400),
                        new CniResult.Interface("0123456789a_udn", "aa:bb:cc:dd:ee:02", "", 1400),
                        new CniResult.Interface("ovn-udn1", "0a:58:0a:14:02:05", "/run/netns/p", 1400)),
                List.of(
                        new CniResult.IpConfig("10.244.0.3/24", "", 1),
                        new CniResult.IpConfig("10.20.2.5/24", "10.20.2.1", 3)),
                List.of(
                        new CniResult.Route("10.244.0.0/16", "10.244.0.1"),
                        new CniResult.Route("10.96.0.0/16", "10.20.2.1")),
                null);
        assertThat(CniResultCodec.encode(twoInterfaces, "1.0.0"))
                .isEqualTo(
                        JSON.readTree(
                                "{\"cniVersion\":\"1.0.0\","
                                        + "\"interfaces\":[{\"name\":\"0123456789abcde\",\"mac\":\"aa:bb:cc:dd:ee:01\"},"
                                        + "{\"name\":\"eth0\",\"mac\":\"0a:58:0a:f4:00:03\",\"sandbox\":\"/run/netns/p\"},"
                                        + "{\"name\":\"0123456789a_udn\",\"mac\":\"aa:bb:cc:dd:ee:02\"},"
                                        + "{\"name\":\"ovn-udn1\",\"mac\":\"0a:58:0a:14:02:05\",\"sandbox\":\"/run/netns/p\"}],"
                                        + "\"ips\":[{\"interface\":1,\"address\":\"10.244.0.3/24\"},"
                                        + "{\"interface\":3,\"address\":\"10.20.2.5/24\",\"gateway\":\"10.20.2.1\"}],"
                                        + "\"routes\":[{\"dst\":\"10.244.0.0/16\",\"gw\":\"10.244.0.1\"},{\"dst\":\"10.96.0.0/16\",\"gw\":\"10.20.2.1\"}]}"));
        assertThat(CniResultCodec.decode(CniResultCodec.encode(twoInterfaces, "1.0.0"))
                        .ips())
                .isEqualTo(twoInterfaces.ips());
    }

    @ParameterizedTest
    @CsvSource({"0.3.0", "0.4.0", "1.0.0", "1.1.0"})
    void decodingAnEncodedResultGivesItBack(String version) throws Exception {
        CniResult back = CniResultCodec.decode(CniResultCodec.encode(POD, version));
        assertThat(back.ips()).isEqualTo(POD.ips());
        assertThat(back.routes()).isEqualTo(POD.routes());
        assertThat(back.interfaces().getFirst().mac()).isEqualTo("0a:58:0a:f4:01:03");
    }

    @Test
    void chainingAppendsAndShiftsIndexes() {
        CniResult prev = new CniResult(
                List.of(new CniResult.Interface("lo", "", "/run/netns/p", 0)),
                List.of(new CniResult.IpConfig("127.0.0.1/8", "", 0)),
                List.of(),
                new CniResult.Dns(List.of("1.1.1.1"), "", List.of(), List.of()));
        CniResult chained = POD.after(prev);
        assertThat(chained.interfaces()).extracting(CniResult.Interface::name).containsExactly("lo", "eth0");
        assertThat(chained.ips()).extracting(CniResult.IpConfig::interfaceIndex).containsExactly(0, 1, 1);
        assertThat(chained.dns().nameservers()).containsExactly("1.1.1.1"); // ours is empty: theirs stays
    }

    @Test
    void errorsOmitEmptyDetails() {
        assertThat(CniResultCodec.encodeError(new CniException(11, "try again later"), "1.0.0")
                        .toString())
                .isEqualTo("{\"cniVersion\":\"1.0.0\",\"code\":11,\"msg\":\"try again later\"}");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "[]",
                "{\"ips\":{}}",
                "{\"ips\":[{\"gateway\":\"1.2.3.4\"}]}",
                "{\"ips\":[{\"address\":\"1.2.3.4/8\",\"interface\":\"zero\"}]}",
                "{\"interfaces\":[{\"mac\":\"x\"}]}",
                "{\"routes\":[{\"gw\":\"1.1.1.1\"}]}",
                "{\"interfaces\":[{\"name\":7}]}"
            })
    void malformedPrevResultsAreInvalidConfig(String prev) {
        assertThatThrownBy(() -> CniResultCodec.decode(JSON.readTree(prev)))
                .isInstanceOfSatisfying(
                        CniException.class, e -> assertThat(e.code()).isEqualTo(7));
    }
}
