package io.kovn.cli;

import io.kovn.identity.IdentityService;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code kovn identity}: the identity service (CSR approver, admission webhook) with exactly the options of
 * {@link IdentityService.Options}, so {@code kovn identity ARGS} and {@code java -cp ...
 * io.kovn.identity.IdentityService ARGS} behave the same.
 */
@Command(
        name = "identity",
        mixinStandardHelpOptions = true,
        description = "Run the identity service: CSR approver and admission webhook for node identities.")
public final class IdentityCommand implements Callable<Integer> {
    @Mixin
    IdentityService.Options options;

    @Override
    public Integer call() throws Exception {
        // As IdentityService.main: bound how long a slow client may hold a webhook worker.
        System.setProperty("sun.net.httpserver.maxReqTime", "15");
        System.setProperty("sun.net.httpserver.maxRspTime", "15");
        return options.call();
    }
}
