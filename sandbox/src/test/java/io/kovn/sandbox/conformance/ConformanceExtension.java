package io.kovn.sandbox.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives conformance tests a {@link SuiteRun} on ONE sandbox shared by every test class of a family that uses this
 * extension (bring-up costs about 20 s): IPv4, or dual-stack probed over IPv6 for classes marked {@link OverIpv6}. The
 * sandbox lives in the root store and is closed, with every namespace, link and process it made, when the test run
 * ends, or when a class of the other family comes: then it is closed before the other family's starts, so that two
 * sandboxes never run at once. After each test every policy is deleted (and removed from all zones) before the next one
 * starts; the test then fails with all the probes that did not meet their expectation.
 */
final class ConformanceExtension implements ParameterResolver, AfterEachCallback {
    private static final Logger LOG = LoggerFactory.getLogger(ConformanceExtension.class);
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ConformanceExtension.class);

    /** The shared sandbox, or why it could not start (so that later tests do not retry for minutes). */
    static final class Shared implements AutoCloseable {
        final ConformanceCluster cluster;
        final ProbeRunner runner;
        final Policies policies;
        final Exception failure;
        final boolean ipv6;

        private Shared(ConformanceCluster cluster, boolean ipv6, Exception failure) {
            this.cluster = cluster;
            this.ipv6 = ipv6;
            this.failure = failure;
            this.runner = cluster == null ? null : new ProbeRunner(cluster);
            this.policies = cluster == null ? null : new Policies(cluster.sandbox.client);
        }

        static Shared start(boolean ipv6) {
            try {
                return new Shared(ConformanceCluster.start(ipv6), ipv6, null);
            } catch (Exception e) {
                return new Shared(null, ipv6, e);
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

    /** The shared sandbox of the test class's family, started (after closing the other family's) if need be. */
    static synchronized Shared shared(ExtensionContext context) {
        boolean ipv6 = ipv6(context);
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        store.getOrComputeIfAbsent(SuiteRun.REPORT, ConformanceExtension::newReport, Boolean.class);
        Shared s = store.get(Shared.class, Shared.class);
        if (s != null && s.ipv6 != ipv6) {
            // Removed from the store first: the store then does not close it a second time.
            store.remove(Shared.class, Shared.class);
            s.close();
            s = null;
        }
        if (s == null) {
            s = Shared.start(ipv6);
            store.put(Shared.class, s);
        }
        if (s.failure != null) {
            throw new IllegalStateException(
                    "the conformance sandbox (" + (ipv6 ? "IPv6" : "IPv4") + ") did not start", s.failure);
        }
        return s;
    }

    private static boolean ipv6(ExtensionContext context) {
        return AnnotationSupport.isAnnotated(context.getRequiredTestClass(), OverIpv6.class);
    }

    /** One report per run, for both families. */
    private static Boolean newReport(Object key) {
        try {
            Files.deleteIfExists(SuiteRun.REPORT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
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
        String name = context.getRequiredTestMethod().getName();
        SuiteRun run = new SuiteRun(s.ipv6 ? name + " (IPv6)" : name, s.policies, s.runner);
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
