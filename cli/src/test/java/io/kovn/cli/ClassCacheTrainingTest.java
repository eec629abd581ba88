package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

/**
 * The class cache's training run must go through: the launcher and the image record the cache from it, and a training
 * that fails leaves every kovn process starting without one, twice as slowly.
 */
class ClassCacheTrainingTest {
    @Test
    void theTrainingRunAnalyzesTheDemoAndStartsANodeClientWithoutServers() {
        assertThatCode(() -> ClassCacheTraining.main(new String[] {"../examples"}))
                .doesNotThrowAnyException();
    }
}
