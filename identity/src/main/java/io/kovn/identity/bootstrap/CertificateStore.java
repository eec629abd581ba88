package io.kovn.identity.bootstrap;

import io.kovn.pki.SecureFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The folder holding a node's client credentials: {@code ovn-node.key} (mode 0600) and {@code ovn-node.crt}; the folder
 * itself is 0700.
 */
public final class CertificateStore {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateStore.class);

    private final Path folder;

    /** A store in the folder (created when missing). */
    public CertificateStore(Path folder) {
        this.folder = folder;
    }

    public Path certificateFile() {
        return folder.resolve("ovn-node.crt");
    }

    public Path keyFile() {
        return folder.resolve("ovn-node.key");
    }

    /** The stored credentials, empty when there are none or they cannot be read. */
    public Optional<NodeCredentials> load() {
        if (!Files.exists(certificateFile()) || !Files.exists(keyFile())) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    NodeCredentials.fromPem(Files.readString(certificateFile()), Files.readString(keyFile())));
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Ignoring unreadable stored credentials in {}: {}", folder, e.toString());
            return Optional.empty();
        }
    }

    /** Stores credentials, the key first so a certificate on disk never lacks its key. */
    public void save(NodeCredentials credentials) {
        try {
            SecureFiles.createPrivateDirectories(folder);
            SecureFiles.writePrivate(keyFile(), credentials.keyPem());
            SecureFiles.writeAtomically(certificateFile(), credentials.certificatePem());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
