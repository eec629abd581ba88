package io.kovn.cli;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.sandbox.Prober;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The pod-to-pod truth table measured with real packets (probes run in parallel), and how it compares with what
 * {@code kovn analyze} predicts from the policies alone.
 *
 * @param cells per flow, source and destination: {@code .} allowed, {@code X} denied (timeout), {@code R} refused (the
 *     packet arrived and nothing listens)
 */
record ConnectivityMatrix(List<Pod> pods, List<ProbeCommand.Flow> flows, String[][][] cells) {

    static ConnectivityMatrix measure(Prober prober, List<Pod> pods, List<ProbeCommand.Flow> flows, Duration t)
            throws Exception {
        String[][][] cells = new String[flows.size()][pods.size()][pods.size()];
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int f = 0; f < flows.size(); f++) {
                for (int i = 0; i < pods.size(); i++) {
                    for (int j = 0; j < pods.size(); j++) {
                        int ff = f, ii = i, jj = j;
                        futures.add(pool.submit(() -> {
                            ProbeCommand.Flow flow = flows.get(ff);
                            Prober.Result r = prober.probe(
                                    SandboxPods.netns(pods.get(ii)),
                                    flow.protocol(),
                                    SandboxPods.ip(pods.get(jj)),
                                    flow.port(),
                                    t);
                            cells[ff][ii][jj] = switch (r.verdict()) {
                                case ALLOWED -> ".";
                                case DENIED -> "X";
                                case REFUSED -> "R";
                            };
                            return null;
                        }));
                    }
                }
            }
            for (Future<?> fu : futures) fu.get();
        }
        return new ConnectivityMatrix(pods, flows, cells);
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < flows.size(); f++) {
            sb.append(flows.get(f)).append("   (row: from, column: to; . allowed, X denied, R refused)\n");
            List<List<String>> rows = new ArrayList<>();
            List<String> header = new ArrayList<>(List.of(""));
            for (int j = 0; j < pods.size(); j++) header.add(Integer.toString(j + 1));
            rows.add(header);
            for (int i = 0; i < pods.size(); i++) {
                List<String> row = new ArrayList<>(List.of((i + 1) + " " + SandboxPods.name(pods.get(i))));
                for (int j = 0; j < pods.size(); j++) row.add(cells[f][i][j]);
                rows.add(row);
            }
            sb.append(Tables.format(rows)).append('\n');
        }
        return sb.toString();
    }

    /**
     * One line: {@code kovn analyze} predicts every measured flow, or the flows where it does not (each with both
     * answers). A refused connection counts as allowed: the packet got through.
     */
    String comparedWith(PolicyEvaluator evaluator) {
        List<String> differ = new ArrayList<>();
        int total = 0;
        for (int f = 0; f < flows.size(); f++) {
            ProtocolPort port = ProtocolPort.parse(flows.get(f).toString());
            for (int i = 0; i < pods.size(); i++) {
                for (int j = 0; j < pods.size(); j++) {
                    total++;
                    boolean measured = !cells[f][i][j].equals("X");
                    Verdict predicted = evaluator.verdict(
                            Flow.of(SandboxPods.endpoint(pods.get(i)), SandboxPods.endpoint(pods.get(j)), port));
                    if (measured != (predicted == Verdict.ALLOWED)) {
                        differ.add(SandboxPods.name(pods.get(i)) + " -> " + SandboxPods.name(pods.get(j)) + " " + port
                                + " (measured " + (measured ? "allowed" : "denied") + ", analyze " + predicted.word()
                                + ")");
                    }
                }
            }
        }
        return differ.isEmpty()
                ? "kovn analyze, from the policies alone, predicts the same for all " + total + " flows.\n"
                : "kovn analyze predicts otherwise for " + differ.size() + " of " + total
                        + " flows (see docs/troubleshooting.md):\n  " + String.join("\n  ", differ) + "\n";
    }
}
