package io.kovn.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pinned upstream Kubernetes binaries (built by {@code scripts/install-kube.sh} from {@code tools/kube/go.mod}):
 * etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl, in {@code bin/}.
 *
 * <p>Located by, in order: system property {@code kovn.kube}, environment {@code KOVN_KUBE}, else
 * {@code /var/cache/kovn/kube-<release>} with the release read from the repository's {@code tools/kube/go.mod} (the
 * nearest folder above the working directory that holds it).
 *
 * @param root the folder holding {@code bin/}
 */
public record KubeRuntime(Path root) {
    /** The binaries a control plane needs. */
    public static final List<String> BINARIES =
            List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl");

    private static final Pattern RELEASE =
            Pattern.compile("(?m)^\\s*(?:require\\s+)?k8s\\.io/kubernetes\\s+(v\\d+\\.\\d+\\.\\d+)");

    public KubeRuntime {
        Objects.requireNonNull(root, "root");
    }

    /** Finds the binaries, failing with instructions when they are not built. */
    public static KubeRuntime locate() {
        Path root = RuntimeLocation.resolve(
                "kovn.kube",
                "KOVN_KUBE",
                () -> Path.of("/var/cache/kovn/kube-"
                        + release(RuntimeLocation.repoRoot("tools/kube/go.mod", "kovn.kube", "KOVN_KUBE")
                                .resolve("tools/kube/go.mod"))));
        KubeRuntime rt = new KubeRuntime(root);
        for (String binary : BINARIES) {
            if (!Files.isExecutable(rt.bin(binary))) {
                throw new IllegalStateException("Kubernetes binaries not found at " + rt.root() + " (no bin/" + binary
                        + "); build them with scripts/install-kube.sh or point -Dkovn.kube / KOVN_KUBE at them");
            }
        }
        return rt;
    }

    /** The Kubernetes release a go.mod pins (its {@code k8s.io/kubernetes} requirement). */
    static String release(Path goMod) {
        try {
            Matcher m = RELEASE.matcher(Files.readString(goMod));
            if (!m.find()) {
                throw new IllegalStateException(goMod + " requires no k8s.io/kubernetes release");
            }
            return m.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + goMod, e);
        }
    }

    /** A binary, e.g. {@code bin("kubectl")}. */
    public Path bin(String name) {
        return root.resolve("bin").resolve(name);
    }
}
