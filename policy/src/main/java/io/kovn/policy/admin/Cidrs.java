package io.kovn.policy.admin;

/** CIDR text checks. Pure. */
public final class Cidrs {
    private Cidrs() {
    }

    /** Whether {@code text} is an IPv4 or IPv6 CIDR ({@code address/prefix}), checked without name resolution. */
    public static boolean isCidr(String text) {
        if (text == null) {
            return false;
        }
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            return false;
        }
        String address = text.substring(0, slash);
        int prefix;
        try {
            prefix = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (address.contains(":")) {
            return prefix >= 0 && prefix <= 128 && address.matches("[0-9a-fA-F:.]+") && parses(address);
        }
        if (prefix < 0 || prefix > 32) {
            return false;
        }
        String[] parts = address.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    private static boolean parses(String literal) {
        try {
            // A literal with ':' is parsed without any lookup.
            java.net.InetAddress.getByName("[" + literal + "]");
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }
}
