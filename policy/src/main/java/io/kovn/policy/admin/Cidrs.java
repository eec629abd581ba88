package io.kovn.policy.admin;

/** CIDR text checks, by parsing the text only (no name resolution, no I/O). */
public final class Cidrs {
    private Cidrs() {
    }

    /** Whether {@code text} is an IPv4 or IPv6 CIDR ({@code address/prefix}). */
    public static boolean isCidr(String text) {
        if (text == null) {
            return false;
        }
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1 || text.length() - slash > 4) {
            return false;
        }
        String prefixText = text.substring(slash + 1);
        if (!prefixText.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int prefix = Integer.parseInt(prefixText);
        String address = text.substring(0, slash);
        return address.indexOf(':') >= 0 ? prefix <= 128 && isIpv6(address) : prefix <= 32 && isIpv4(address);
    }

    /** Whether {@code text} is a dotted-quad IPv4 address. */
    public static boolean isIpv4(String text) {
        String[] parts = text.split("\\.", -1);
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

    /** Whether {@code text} is an IPv6 address in RFC 4291 text form (with at most one {@code ::}, optional IPv4 tail). */
    public static boolean isIpv6(String text) {
        int doubleColon = text.indexOf("::");
        if (doubleColon >= 0 && text.indexOf("::", doubleColon + 1) >= 0) {
            return false;
        }
        String head = doubleColon >= 0 ? text.substring(0, doubleColon) : text;
        String tail = doubleColon >= 0 ? text.substring(doubleColon + 2) : "";
        int groups = 0;
        for (String side : doubleColon >= 0 ? new String[] {head, tail} : new String[] {head}) {
            if (side.isEmpty()) {
                continue;
            }
            String[] parts = side.split(":", -1);
            for (int i = 0; i < parts.length; i++) {
                String part = parts[i];
                boolean last = i == parts.length - 1 && (side == tail || doubleColon < 0);
                if (last && part.contains(".")) {
                    if (!isIpv4(part)) {
                        return false;
                    }
                    groups += 2;
                } else if (part.isEmpty() || part.length() > 4 || !part.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                    return false;
                } else {
                    groups++;
                }
            }
        }
        return doubleColon >= 0 ? groups <= 7 : groups == 8;
    }
}
