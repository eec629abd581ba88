package io.kovn.cli;

import io.kovn.controller.network.ClusterNetwork;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/**
 * The {@code --cluster-subnets} value: comma-separated {@code <cidr>/<host subnet length>} entries, at most one per IP
 * family (as in the reference's {@code --cluster-subnets}).
 */
final class ClusterSubnets {
    private ClusterSubnets() {}

    /** Parses {@code 10.244.0.0/16/24[,fd00:10:244::/48/64]}. */
    static List<ClusterNetwork> parse(String text) {
        List<ClusterNetwork> networks = Arrays.stream(text.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(ClusterNetwork::parse)
                .toList();
        if (networks.isEmpty()) {
            throw new IllegalArgumentException("no cluster subnet in '" + text + "'");
        }
        if (networks.stream().map(ClusterNetwork::family).distinct().count() != networks.size()) {
            throw new IllegalArgumentException("at most one cluster subnet per IP family: '" + text + "'");
        }
        return networks;
    }

    /** picocli converter. */
    static final class Converter implements CommandLine.ITypeConverter<List<ClusterNetwork>> {
        @Override
        public List<ClusterNetwork> convert(String value) {
            try {
                return parse(value);
            } catch (RuntimeException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
