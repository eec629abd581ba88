package io.kovn.policy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CidrsTest {
    @ParameterizedTest
    @CsvSource({
        "0.0.0.0/0, true", "10.0.54.0/19, true", "10.0.56.38/32, true", "::/0, true", "fd00::/8, true",
        "2001:db8::1/128, true", "::ffff:10.0.0.1/128, true", "1:2:3:4:5:6:7:8/64, true",
        "10.0.0.0/33, false", "10.0.0/8, false", "256.0.0.0/8, false", "10.0.0.0, false", "10.0.0.0/, false",
        "fd00::/129, false", "1::2::3/64, false", "1:2:3:4:5:6:7:8:9/64, false", "g::/8, false", "/8, false",
        "10.0.0.0/-1, false", "1:2:3:4:5:6:7/64, false"})
    void cidrsAreRecognisedByTheirText(String text, boolean valid) {
        assertThat(Cidrs.isCidr(text)).isEqualTo(valid);
    }
}
