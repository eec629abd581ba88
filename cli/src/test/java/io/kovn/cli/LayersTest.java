package io.kovn.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of ../shared/STYLE.md, checked on the production classes of every module: the pure model (Kubernetes
 * objects in, desired rows out) does no I/O, knows no controller, no OVSDB type and no informer; the OVSDB library
 * knows nothing of OVN or Kubernetes, OVN's typed rows and names nothing of Kubernetes, the Kubernetes runtime nothing
 * of OVN; controllers do not reach into the edges (node agent, CLI, sandbox) nor into each other.
 */
class LayersTest {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.kovn");
    }

    /**
     * What I/O looks like from Java: sockets, processes, files, the Kubernetes client, OVSDB connections and caches,
     * informers. Addresses ({@code InetAddress}) are values, not I/O.
     */
    private static final String[] IO = {
        "java.net.http..", "java.nio.channels..", "io.fabric8.kubernetes.client..", "io.kovn.k8s.runtime..",
        "io.kovn.k8s.client..", "io.kovn.k8s.leader..", "io.kovn.k8s.events..", "io.kovn.k8s.local..",
        "io.kovn.ovsdb.client..", "io.kovn.ovsdb.rpc..", "io.kovn.ovsdb.cache..", "io.kovn.runtime.."
    };

    private static final DescribedPredicate<JavaClass> IO_CLASSES = JavaClass.Predicates.belongToAnyOf(
                    Socket.class,
                    ServerSocket.class,
                    DatagramSocket.class,
                    URL.class,
                    URLConnection.class,
                    ProcessBuilder.class,
                    Process.class,
                    Files.class,
                    FileInputStream.class,
                    FileOutputStream.class)
            .or(JavaClass.Predicates.resideInAnyPackage(IO));

    private static final String[] CONTROLLERS_AND_EDGES = {
        "io.kovn.controller..",
        "io.kovn.node..",
        "io.kovn.identity..",
        "io.kovn.cli..",
        "io.kovn.sandbox..",
        "io.kovn.bench.."
    };

    @Test
    void thePolicyModelIsPure() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.policy..")
                .should()
                .dependOnClassesThat(IO_CLASSES)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(CONTROLLERS_AND_EDGES)
                .because("desired state is a pure function of a snapshot (STYLE.md, practice 2)"));
    }

    @Test
    void thePolicyModelKnowsNoOvsdbRowsOrInformers() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.policy..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kovn.ovsdb..",
                        "io.kovn.ovn.nb..",
                        "io.kovn.ovn.sb..",
                        "io.kovn.k8s.runtime..",
                        "io.fabric8.kubernetes.client.informers..")
                .because("the policy's desired rows are its own records, read from a snapshot of values: the"
                        + " controller builds the snapshot from the informer stores and the OVSDB rows from the"
                        + " desired rows (issue 33)"));
    }

    @Test
    void thePolicyRowRecordsAreTheLeafOfThePolicyModule() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.policy.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kovn.policy",
                        "io.kovn.policy.select..",
                        "io.kovn.policy.match..",
                        "io.kovn.policy.admin..",
                        "io.kovn.policy.netpol..",
                        "io.kovn.policy.convert..",
                        "io.kovn.policy.evaluator..")
                .because("snapshot and desired rows are the vocabulary the translators share, not a translator"));
    }

    @Test
    void ovnKnowsNeitherKubernetesNorPolicies() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.ovn..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.kovn.k8s..", "io.fabric8..", "io.kovn.policy..")
                .because("typed rows, object ids and topology builders serve every controller"));
    }

    @Test
    void theKubernetesRuntimeKnowsNothingOfOvn() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.k8s..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.kovn.ovsdb..", "io.kovn.ovn..", "io.kovn.policy..")
                .because("informers, queues and API types are a controller runtime of their own"));
    }

    @Test
    void theZoneAndPolicyControllersDoNotReachIntoEachOther() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.controller.zone..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.kovn.controller.policy..")
                .because("feature controllers are wired side by side (STYLE.md: adding a feature adds files)"));
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.controller.policy..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.kovn.controller.zone..")
                .because("feature controllers are wired side by side (STYLE.md: adding a feature adds files)"));
    }

    @Test
    void ovnNamesTopologiesAndAnnotationsArePure() {
        check(noClasses()
                .that()
                .resideInAnyPackage("io.kovn.ovn..")
                .should()
                .dependOnClassesThat(IO_CLASSES)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(CONTROLLERS_AND_EDGES)
                .because("names, annotation codecs and topology builders are pure"));
    }

    @Test
    void theOvsdbLibraryKnowsNothingOfOvnOrKubernetes() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn.ovsdb..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kovn.ovn..", "io.kovn.k8s..", "io.fabric8..", "io.kovn.policy..", "io.kovn.runtime..")
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(CONTROLLERS_AND_EDGES)
                .because("kovn's OVSDB client is a library in its own right (docs/ovsdb.md)"));
    }

    @Test
    void buildingOperationsDoesNoIo() {
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "io.kovn.ovsdb.data..", "io.kovn.ovsdb.ops..", "io.kovn.ovsdb.schema..", "io.kovn.ovsdb.wire..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kovn.ovsdb.client..",
                        "io.kovn.ovsdb.rpc..",
                        "io.kovn.ovsdb.cache..",
                        "java.nio.channels..",
                        "java.net.http..")
                .orShould()
                .dependOnClassesThat()
                .belongToAnyOf(Socket.class, ServerSocket.class)
                .because("building an operation never performs I/O; one transact sends them (STYLE.md)"));
    }

    @Test
    void controllersDoNotReachIntoTheEdges() {
        check(noClasses()
                .that()
                .resideInAnyPackage("io.kovn.controller..", "io.kovn.k8s..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kovn.node..", "io.kovn.cli..", "io.kovn.sandbox..", "io.kovn.identity..", "io.kovn.bench..")
                .because("the edges wire controllers, not the other way round"));
    }

    /**
     * The JDK HTTP client completes every asynchronous request (every fabric8 list, watch start and write) on the
     * common fork-join pool, which has one thread on a 2-core node. Work of kovn's there that blocks (sleeps, waits for
     * an informer, a transaction) would hold every API response of the process until it returns: kovn's asynchronous
     * work runs on executors of its own.
     */
    @Test
    void nothingRunsOnTheCommonPool() {
        check(noClasses()
                .that()
                .resideInAPackage("io.kovn..")
                .should()
                .callMethod(CompletableFuture.class, "runAsync", Runnable.class)
                .orShould()
                .callMethod(CompletableFuture.class, "supplyAsync", Supplier.class)
                .orShould()
                .callMethod(CompletableFuture.class, "delayedExecutor", long.class, TimeUnit.class)
                .orShould()
                .callMethod(ForkJoinPool.class, "commonPool")
                .orShould()
                .callMethod(Collection.class, "parallelStream")
                .because("the JDK HTTP client needs the common pool to complete API responses"));
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }
}
