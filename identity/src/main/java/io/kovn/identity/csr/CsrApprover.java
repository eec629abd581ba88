package io.kovn.identity.csr;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestCondition;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.Mapper;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches CertificateSigningRequests and approves or denies node-identity requests by {@link CsrRules}: the
 * Approved/Denied condition goes through the {@code approval} subresource (reasons {@code AutoApproved} /
 * {@code CSRDenied}) and an Event records the decision. A {@link Controller} keyed by CSR name runs the decisions: one
 * at a time per CSR, failures retried with backoff.
 */
public final class CsrApprover implements AutoCloseable {
    /** Reason of the Approved condition. */
    public static final String REASON_APPROVED = "AutoApproved";
    /** Reason of the Denied condition and the warning Event. */
    public static final String REASON_DENIED = "CSRDenied";
    /** Component named in Events. */
    public static final String COMPONENT = "kovn-csr-approver";
    /** CSRs are cluster-scoped; their Events go to this namespace, as kube-controller-manager's do. */
    public static final String EVENT_NAMESPACE = "default";

    private static final Logger LOG = LoggerFactory.getLogger(CsrApprover.class);

    private final KubernetesClient client;
    private final ApproverConfig config;
    private final Clock clock;
    private SharedIndexInformer<CertificateSigningRequest> informer;
    private Controller<ObjectKey> controller;

    /** An approver using the client's credentials (it needs the approve verb on the signer). */
    public CsrApprover(KubernetesClient client, ApproverConfig config, Clock clock) {
        this.client = client;
        this.config = config;
        this.clock = clock;
    }

    /** Starts watching CSRs. */
    public CsrApprover start() {
        informer = client.certificates().v1().certificateSigningRequests().runnableInformer(0);
        controller = Controller.<ObjectKey>builder("csr-approver", key -> reconcile(key.name()))
                .watch(informer, Mapper.self())
                .build();
        controller.start();
        informer.start();
        return this;
    }

    /** Decides one CSR by name and writes the decision (level-driven: an already decided CSR is left alone). */
    ReconcileResult reconcile(String name) {
        CertificateSigningRequest csr = client.certificates()
                .v1()
                .certificateSigningRequests()
                .withName(name)
                .get();
        if (csr == null) {
            return ReconcileResult.done();
        }
        CsrDecision decision = CsrRules.decide(CsrFacts.from(csr), config);
        switch (decision) {
            case CsrDecision.Ignore ignore -> LOG.debug("CSR {} ignored: {}", name, ignore.why());
            case CsrDecision.Approve approve -> {
                decide(csr, condition("Approved", REASON_APPROVED, approve.message()));
                event(csr, "Normal", REASON_APPROVED, approve.message());
                LOG.info("CSR {} approved: {}", name, approve.message());
            }
            case CsrDecision.Deny deny -> {
                decide(csr, condition("Denied", REASON_DENIED, deny.message()));
                event(csr, "Warning", REASON_DENIED, deny.message());
                LOG.warn("CSR {} denied: {}", name, deny.message());
            }
        }
        return ReconcileResult.done();
    }

    /**
     * Adds the decision to the CSR as read, through the {@code approval} subresource, with the resourceVersion it was
     * read at: when another approver (a second replica) decided it meanwhile, kube-apiserver answers 409, the
     * controller retries, and the retry reads a decided CSR and leaves it alone. So each CSR gets one decision and one
     * Event, however many replicas run.
     */
    private void decide(CertificateSigningRequest csr, CertificateSigningRequestCondition decision) {
        CertificateSigningRequest decided = new CertificateSigningRequestBuilder(csr)
                .editOrNewStatus()
                .addToConditions(decision)
                .endStatus()
                .build();
        client.certificates()
                .v1()
                .certificateSigningRequests()
                .resource(decided)
                .subresource("approval")
                .update();
    }

    private CertificateSigningRequestCondition condition(String type, String reason, String message) {
        String now = Instant.now(clock).toString();
        return new CertificateSigningRequestConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withReason(reason)
                .withMessage(message)
                .withLastUpdateTime(now)
                .withLastTransitionTime(now)
                .build();
    }

    private void event(CertificateSigningRequest csr, String type, String reason, String message) {
        String now = Instant.now(clock).toString();
        String name = csr.getMetadata().getName() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        try {
            client.v1()
                    .events()
                    .inNamespace(EVENT_NAMESPACE)
                    .resource(new EventBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace(EVENT_NAMESPACE)
                            .endMetadata()
                            .withInvolvedObject(new ObjectReferenceBuilder()
                                    .withApiVersion("certificates.k8s.io/v1")
                                    .withKind("CertificateSigningRequest")
                                    .withName(csr.getMetadata().getName())
                                    .withUid(csr.getMetadata().getUid())
                                    .build())
                            .withType(type)
                            .withReason(reason)
                            .withMessage(message)
                            .withNewSource()
                            .withComponent(COMPONENT)
                            .endSource()
                            .withFirstTimestamp(now)
                            .withLastTimestamp(now)
                            .withCount(1)
                            .build())
                    .create();
        } catch (RuntimeException e) {
            // The decision is already written; a lost event must not undo or repeat it.
            LOG.warn("Cannot record event for CSR {}: {}", csr.getMetadata().getName(), e.toString());
        }
    }

    @Override
    public void close() {
        if (controller != null) {
            controller.close();
        }
        if (informer != null) {
            informer.close();
        }
    }
}
