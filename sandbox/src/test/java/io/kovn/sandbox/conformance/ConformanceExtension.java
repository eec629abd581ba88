package io.kovn.sandbox.conformance;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives conformance tests a {@link SuiteRun} on ONE sandbox shared by every test class that uses
 * this extension (bring-up costs about 20 s): the sandbox lives in the root store and is closed,
 * with every namespace, link and process it made, when the test run ends. After each test every
 * policy is deleted (and removed from all zones) before the next one starts; the test then fails
 * with all the probes that did not meet their expectation.
 */
final class ConformanceExtension implements ParameterResolver, AfterEachCallback {
    private static final Logger LOG = LoggerFactory.getLogger(ConformanceExtension.class);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ConformanceExtension.class);

    /** The shared sandbox, or why it could not start (so that later tests do not retry for minutes). */
    static final class Shared implements AutoCloseable {
        final ConformanceCluster cluster;
        final ProbeRunner runner;
        final Policies policies;
        final Exception failure;

        private Shared(ConformanceCluster cluster, Exception failure) {
            this.cluster = cluster;
            this.failure = failure;
            this.runner = cluster == null ? null : new ProbeRunner(cluster);
            this.policies = cluster == null ? null : new Policies(cluster.sandbox.client);
        }

        static Shared start() {
            try {
                java.nio.file.Files.deleteIfExists(SuiteRun.REPORT); // one report per run
                return new Shared(ConformanceCluster.start(), null);
            } catch (Exception e) {
                return new Shared(null, e);
            }
        }

        @Override
        public void close() {
            if (runner != null) runner.close();
            if (cluster != null) {
                cluster.close();
                List<String> left = cluster.sandbox.leftovers();
                if (!left.isEmpty()) LOG.warn("conformance sandbox left namespaces/links behind: {}", left);
            }
        }
    }

    static Shared shared(ExtensionContext context) {
        Shared s = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Shared.class, k -> Shared.start(), Shared.class);
        if (s.failure != null) throw new IllegalStateException("the conformance sandbox did not start", s.failure);
        return s;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == SuiteRun.class || type == ConformanceCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Shared s = shared(context);
        if (parameter.getParameter().getType() == ConformanceCluster.class) return s.cluster;
        SuiteRun run = new SuiteRun(context.getRequiredTestMethod().getName(), s.policies, s.runner);
        context.getStore(NAMESPACE).put(SuiteRun.class, run);
        return run;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        SuiteRun run = context.getStore(NAMESPACE).remove(SuiteRun.class, SuiteRun.class);
        Shared s = context.getRoot().getStore(NAMESPACE).get(Shared.class, Shared.class);
        if (s == null || s.cluster == null) return;
        Optional<Throwable> error = context.getExecutionException();
        try {
            if (run != null) run.report(error.orElse(null));
        } finally {
            s.cluster.restoreNamespaceLabels();
            s.policies.deleteAll(s.cluster.nodes());
        }
        if (run != null && !run.failures().isEmpty()) {
            throw new AssertionError(run.shortName + ": " + run.failures().size() + " probe(s) failed\n"
                    + String.join("\n", run.failures()));
        }
    }
}
