package io.kovn.node.cni;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses {@code CNI_ARGS}: {@code KEY=VALUE} pairs separated by semicolons. Pure. */
public final class CniArgs {
    private CniArgs() {}

    /** kubelet / CRI runtimes pass the pod identity under these keys. */
    public static final String POD_NAMESPACE = "K8S_POD_NAMESPACE";

    public static final String POD_NAME = "K8S_POD_NAME";
    public static final String POD_UID = "K8S_POD_UID";

    /**
     * The pairs of {@code cniArgs} in order; unknown keys are kept (kovn ignores them, as if every caller passed
     * {@code IgnoreUnknown=1}).
     *
     * @throws CniException {@link CniException#INVALID_ENVIRONMENT_VARIABLES} for a pair without '=' or with an empty
     *     key
     */
    public static Map<String, String> parse(String cniArgs) throws CniException {
        Map<String, String> out = new LinkedHashMap<>();
        if (cniArgs == null || cniArgs.isEmpty()) {
            return out;
        }
        for (String pair : cniArgs.split(";", -1)) {
            if (pair.isEmpty()) {
                continue; // tolerate "A=1;" as libcni-built strings never produce it but humans do
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new CniException(
                        CniException.INVALID_ENVIRONMENT_VARIABLES,
                        "invalid CNI_ARGS",
                        "not a KEY=VALUE pair: \"" + pair + "\"");
            }
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }
}
