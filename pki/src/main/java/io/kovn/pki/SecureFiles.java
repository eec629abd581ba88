package io.kovn.pki;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes key and certificate files atomically, private keys readable by the owner only, in folders that only their
 * owner may list.
 */
public final class SecureFiles {
    private SecureFiles() {}

    /**
     * Creates the folder and any missing parents with mode 0700 (so, whatever the umask, nobody else lists or enters
     * them); an existing folder is left as it is (the operator's choice).
     */
    public static Path createPrivateDirectories(Path folder) throws IOException {
        return Files.createDirectories(
                folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** Writes text with mode 0600 (created that way, never briefly world-readable), atomically. */
    public static void writePrivate(Path file, String text) throws IOException {
        Path temp = Files.createTempFile(
                file.toAbsolutePath().getParent(),
                ".tmp-",
                ".key",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(temp, text);
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Writes text (mode 0644) atomically, so readers never see half a file. */
    public static void writeAtomically(Path file, String text) throws IOException {
        Path temp = Files.createTempFile(
                file.toAbsolutePath().getParent(),
                ".tmp-",
                ".pem",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        Files.writeString(temp, text);
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
