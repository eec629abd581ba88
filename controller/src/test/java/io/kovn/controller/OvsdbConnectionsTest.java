package io.kovn.controller;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OvsdbConnectionsTest {
    @Test
    void largeMessagesDecodeTenNiceLevelsLowerUnlessTheOperatorSaysOtherwise() {
        assertThat(OvsdbConnections.largeMessageNice(null)).isEqualTo(10);
        assertThat(OvsdbConnections.largeMessageNice(" ")).isEqualTo(10);
        assertThat(OvsdbConnections.largeMessageNice("0")).isZero();
        assertThat(OvsdbConnections.largeMessageNice(" 5 ")).isEqualTo(5);
        assertThat(OvsdbConnections.largeMessageNice("19")).isEqualTo(19);
    }

    @Test
    void aValueThatIsNotAnIncrementFallsBackToTheDefault() {
        assertThat(OvsdbConnections.largeMessageNice("20")).isEqualTo(10);
        assertThat(OvsdbConnections.largeMessageNice("-1")).isEqualTo(10);
        assertThat(OvsdbConnections.largeMessageNice("high")).isEqualTo(10);
    }
}
