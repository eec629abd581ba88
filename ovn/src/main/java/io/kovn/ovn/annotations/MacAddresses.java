package io.kovn.ovn.annotations;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** The MAC address rules of the reference: {@code 0a:58:} followed by the four IPv4 bytes. */
public final class MacAddresses {
    private static final Pattern MAC = Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){5}");

    private MacAddresses() {}

    /**
     * {@code 0a:58:} + the address's last four bytes: all of an IPv4 address ({@code 10.244.1.3} →
     * {@code 0a:58:0a:f4:01:03}); the low 32 bits of an IPv6-only one.
     */
    public static String fromIp(InetAddress address) {
        byte[] b = address.getAddress();
        return "0a:58:" + HexFormat.ofDelimiter(":").formatHex(b, b.length - 4, b.length);
    }

    /** Whether the text is a lower-case colon-separated MAC, as OVN and the annotations write it. */
    public static boolean isValid(String mac) {
        return mac != null && MAC.matcher(mac).matches();
    }
}
