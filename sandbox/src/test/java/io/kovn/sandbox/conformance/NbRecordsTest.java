package io.kovn.sandbox.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Splitting the specification's command lines and reading ovn-nbctl's default output, without OVN. */
class NbRecordsTest {
    @Test
    void splitsACommandLineAsAShellWould() {
        assertThat(
                        NbRecords.words(
                                "ovn-nbctl find ACL 'external_ids{>=}{\"k8s.ovn.org/name\"=cluster-control,gress-index=\"5\"}'"))
                .containsExactly(
                        "ovn-nbctl",
                        "find",
                        "ACL",
                        "external_ids{>=}{\"k8s.ovn.org/name\"=cluster-control,gress-index=\"5\"}");
        assertThat(NbRecords.words("  ovn-nbctl  list port-group a1 "))
                .containsExactly("ovn-nbctl", "list", "port-group", "a1");
        assertThatThrownBy(() -> NbRecords.words("find ACL 'open")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsRecordsAndMapColumns() {
        String out = """
                _uuid               : 924b81fd-65cc-494b-9c29-0c5287d69bb1
                action              : drop
                external_ids        : {direction=Egress, gress-index="5", "k8s.ovn.org/name"=cluster-control}
                name                : "ANP:cluster-control:Egress:5"

                _uuid               : 00400c05-7225-4d64-9428-8b2a04c6c3da
                action              : pass
                """;
        List<Map<String, String>> records = NbRecords.parse(out);
        assertThat(records).hasSize(2);
        assertThat(records.get(0).get("name")).isEqualTo("\"ANP:cluster-control:Egress:5\"");
        assertThat(NbRecords.mapValue(records.get(0).get("external_ids"), "gress-index"))
                .isEqualTo("5");
        assertThat(NbRecords.mapValue(records.get(0).get("external_ids"), "k8s.ovn.org/name"))
                .isEqualTo("cluster-control");
        assertThat(NbRecords.mapValue(records.get(0).get("external_ids"), "absent"))
                .isNull();
        assertThat(records.get(1).get("action")).isEqualTo("pass");
    }
}
