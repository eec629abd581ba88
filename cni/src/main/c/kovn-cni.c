/*
 * kovn-cni: the thin CNI plugin of kovn (CNI specification 1.1).
 *
 * A container runtime executes this once per CNI call. It answers VERSION itself and forwards
 * every other command to the kovn node agent's CNI server over a unix socket, then prints what the
 * server answers and exits with the status the server chose. It stays small on purpose: a JVM
 * start costs ~200 ms, this costs about a millisecond.
 *
 * Protocol (version 1, one request per connection; the server side is io.kovn.node.cni.CniWire):
 *   request : {"env":{"CNI_COMMAND":"ADD",...},"config":"<stdin as a JSON string>"}\n
 *             then shutdown(SHUT_WR)
 *   response: <exit status in decimal>\n<bytes to print on stdout>, then the server closes.
 *
 * The plugin reads from stdin only the top-level "socket" (where the server listens, default
 * /run/kovn/cni.sock) and "cniVersion" (to phrase its own errors); the server validates everything
 * else. Errors the plugin reports itself (CNI error JSON on stdout, exit status 1):
 *   4  a required CNI_* variable is missing or CNI_COMMAND is unknown
 *   6  stdin is not a JSON object
 *   7  stdin exceeds MAX_CONFIG bytes, or the socket path is unusable
 *   11 the node agent cannot be reached (try again later)
 *   5  the connection broke or the answer was malformed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_CONFIG (256 * 1024)
#define MAX_RESPONSE (1024 * 1024)
#define DEFAULT_SOCKET "/run/kovn/cni.sock"
#define LATEST_VERSION "1.1.0"
#define SUPPORTED_VERSIONS "[\"0.3.0\",\"0.3.1\",\"0.4.0\",\"1.0.0\",\"1.1.0\"]"
/* ADD waits for the pod's annotation and its port to come up; the server bounds that itself. */
#define TIMEOUT_SECONDS 300

enum { ERR_IO = 5, ERR_ENV = 4, ERR_DECODE = 6, ERR_CONFIG = 7, ERR_TRY_AGAIN = 11 };

static const char *const FORWARDED_ENV[] = {
    "CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_ARGS", "CNI_PATH",
};

/* A growable byte buffer; allocation failure ends the process (a CNI call is short-lived). */
struct buf {
    char *data;
    size_t len, cap;
};

static char error_version[16] = LATEST_VERSION;

static void buf_reserve(struct buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) { fputs("kovn-cni: out of memory\n", stderr); exit(1); }
    b->data = p;
    b->cap = cap;
}

static void buf_add(struct buf *b, const char *s, size_t n) {
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

/* Appends s as a JSON string literal. Bytes >= 0x80 pass through (UTF-8 is the server's to check). */
static void buf_json_string(struct buf *b, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    buf_add(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            buf_add(b, esc, 2);
        } else if (c < 0x20) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buf_add(b, esc, 6);
        } else {
            buf_add(b, (const char *)&c, 1);
        }
    }
    buf_add(b, "\"", 1);
}

/* Prints a CNI error result on stdout (and a line on stderr for the runtime's log); exits 1. */
__attribute__((noreturn, format(printf, 3, 4)))
static void fail(int code, const char *msg, const char *fmt, ...) {
    char details[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(details, sizeof details, fmt, ap);
    va_end(ap);
    struct buf out = {0};
    buf_str(&out, "{\"cniVersion\":");
    buf_json_string(&out, error_version, strlen(error_version));
    char num[32];
    snprintf(num, sizeof num, ",\"code\":%d,\"msg\":", code);
    buf_str(&out, num);
    buf_json_string(&out, msg, strlen(msg));
    if (details[0]) {
        buf_str(&out, ",\"details\":");
        buf_json_string(&out, details, strlen(details));
    }
    buf_str(&out, "}\n");
    fwrite(out.data, 1, out.len, stdout);
    fflush(stdout);
    fprintf(stderr, "kovn-cni: %s%s%s\n", msg, details[0] ? ": " : "", details);
    exit(1);
}

/* ---- a minimal scanner for the top level of the JSON object on stdin ---- */

struct scan {
    const char *p, *end;
};

static void skip_ws(struct scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

/* Reads a string literal; copies its value (simple escapes only) into out when out != NULL.
 * Returns 0, or -1 when malformed; *ok is cleared when the value did not fit or used \u escapes. */
static int scan_string(struct scan *s, char *out, size_t cap, int *ok) {
    size_t n = 0;
    if (s->p >= s->end || *s->p != '"') return -1;
    s->p++;
    while (s->p < s->end) {
        char c = *s->p++;
        if (c == '"') {
            if (out) out[n < cap ? n : cap - 1] = '\0';
            return 0;
        }
        if ((unsigned char)c < 0x20) return -1;
        if (c == '\\') {
            if (s->p >= s->end) return -1;
            c = *s->p++;
            switch (c) {
            case '"': case '\\': case '/': break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u':
                if (s->end - s->p < 4) return -1;
                s->p += 4;
                if (ok) *ok = 0;
                continue;
            default: return -1;
            }
        }
        if (out) {
            if (n + 1 < cap) out[n++] = c;
            else if (ok) *ok = 0;
        }
    }
    return -1;
}

/* Skips any JSON value; nested structure is only balanced, literals only delimited. */
static int skip_value(struct scan *s) {
    skip_ws(s);
    if (s->p >= s->end) return -1;
    if (*s->p == '"') return scan_string(s, NULL, 0, NULL);
    if (*s->p == '{' || *s->p == '[') {
        int depth = 0;
        while (s->p < s->end) {
            char c = *s->p;
            if (c == '"') {
                if (scan_string(s, NULL, 0, NULL) < 0) return -1;
                continue;
            }
            if (c == '{' || c == '[') depth++;
            if (c == '}' || c == ']') depth--;
            s->p++;
            if (depth == 0) return 0;
        }
        return -1;
    }
    const char *start = s->p;
    while (s->p < s->end && strchr("0123456789+-.eEtrufalsn", *s->p)) s->p++;
    return s->p > start ? 0 : -1;
}

/* Finds the top-level "socket" and "cniVersion" strings. Returns -1 when stdin is not an object. */
static int scan_config(const char *data, size_t len, char *socket_path, size_t socket_cap,
                       int *socket_ok, char *version, size_t version_cap) {
    struct scan s = {data, data + len};
    skip_ws(&s);
    if (s.p >= s.end || *s.p != '{') return -1;
    s.p++;
    skip_ws(&s);
    if (s.p < s.end && *s.p == '}') {
        s.p++;
    } else {
        for (;;) {
            char key[32];
            int key_ok = 1;
            skip_ws(&s);
            if (scan_string(&s, key, sizeof key, &key_ok) < 0) return -1;
            skip_ws(&s);
            if (s.p >= s.end || *s.p != ':') return -1;
            s.p++;
            skip_ws(&s);
            if (key_ok && strcmp(key, "socket") == 0 && s.p < s.end && *s.p == '"') {
                if (scan_string(&s, socket_path, socket_cap, socket_ok) < 0) return -1;
            } else if (key_ok && strcmp(key, "cniVersion") == 0 && s.p < s.end && *s.p == '"') {
                int v_ok = 1;
                char v[16];
                if (scan_string(&s, v, sizeof v, &v_ok) < 0) return -1;
                /* Echoed into error results: only a plain version string, so that they stay JSON (UTF-8). */
                if (v_ok && v[0] && strspn(v, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+-") == strlen(v))
                    snprintf(version, version_cap, "%s", v);
            } else if (skip_value(&s) < 0) {
                return -1;
            }
            skip_ws(&s);
            if (s.p < s.end && *s.p == ',') { s.p++; continue; }
            if (s.p < s.end && *s.p == '}') { s.p++; break; }
            return -1;
        }
    }
    skip_ws(&s);
    return s.p == s.end ? 0 : -1;
}

/* ---- I/O ---- */

/* Reads stdin up to MAX_CONFIG + 1 bytes (one more than allowed, to detect oversize). */
static void read_stdin(struct buf *in) {
    for (;;) {
        buf_reserve(in, 65536);
        size_t room = MAX_CONFIG + 1 - in->len;
        if (room == 0) return;
        ssize_t n = read(STDIN_FILENO, in->data + in->len, room < 65536 ? room : 65536);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(ERR_IO, "I/O failure", "reading stdin: %s", strerror(errno));
        if (n == 0) return;
        in->len += (size_t)n;
        in->data[in->len] = '\0';
    }
}

static int send_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int is_set(const char *name) {
    const char *v = getenv(name);
    return v && *v;
}

/* The variables the command requires, as libcni's plugin skeleton checks them. */
static void check_env(const char *command) {
    static const char *const add[] = {"CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_PATH", NULL};
    static const char *const del[] = {"CNI_CONTAINERID", "CNI_IFNAME", "CNI_PATH", NULL};
    static const char *const path_only[] = {"CNI_PATH", NULL};
    const char *const *required;
    if (!strcmp(command, "ADD") || !strcmp(command, "CHECK")) required = add;
    else if (!strcmp(command, "DEL")) required = del;
    else if (!strcmp(command, "STATUS") || !strcmp(command, "GC")) required = path_only;
    else fail(ERR_ENV, "unknown CNI_COMMAND", "%s", command);
    char missing[256] = "";
    for (; *required; required++) {
        if (!is_set(*required)) {
            if (missing[0]) strcat(missing, ",");
            strcat(missing, *required);
        }
    }
    if (missing[0]) fail(ERR_ENV, "required env variables missing", "[%s]", missing);
}

int main(void) {
    const char *command = getenv("CNI_COMMAND");
    if (!command || !*command) fail(ERR_ENV, "required env variables missing", "[CNI_COMMAND]");

    struct buf config = {0};
    buf_reserve(&config, 0);
    if (!isatty(STDIN_FILENO)) read_stdin(&config); /* read even for VERSION: the writer expects it */

    char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)] = DEFAULT_SOCKET;
    int socket_ok = 1;
    int scanned = config.len > MAX_CONFIG ? -1
        : scan_config(config.data, config.len, socket_path, sizeof socket_path, &socket_ok,
                      error_version, sizeof error_version);

    if (!strcmp(command, "VERSION")) {
        printf("{\"cniVersion\":\"%s\",\"supportedVersions\":%s}\n", LATEST_VERSION, SUPPORTED_VERSIONS);
        return 0;
    }
    check_env(command);
    if (config.len > MAX_CONFIG)
        fail(ERR_CONFIG, "network configuration too large", "stdin exceeds %d bytes", MAX_CONFIG);
    if (scanned < 0)
        fail(ERR_DECODE, "error unmarshalling network config", "stdin is not a JSON object");
    if (!socket_ok || !socket_path[0])
        fail(ERR_CONFIG, "invalid socket path", "\"socket\" must be a path of at most %zu bytes",
             sizeof socket_path - 1);

    struct buf req = {0};
    buf_str(&req, "{\"env\":{");
    int first = 1;
    for (size_t i = 0; i < sizeof FORWARDED_ENV / sizeof *FORWARDED_ENV; i++) {
        const char *v = getenv(FORWARDED_ENV[i]);
        if (!v) continue;
        if (!first) buf_str(&req, ",");
        first = 0;
        buf_json_string(&req, FORWARDED_ENV[i], strlen(FORWARDED_ENV[i]));
        buf_str(&req, ":");
        buf_json_string(&req, v, strlen(v));
    }
    buf_str(&req, "},\"config\":");
    buf_json_string(&req, config.data, config.len);
    buf_str(&req, "}\n");

    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail(ERR_IO, "I/O failure", "socket: %s", strerror(errno));
    struct timeval tv = {.tv_sec = TIMEOUT_SECONDS};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, socket_path, strlen(socket_path));
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
        fail(ERR_TRY_AGAIN, "try again later: the kovn node agent is not reachable", "connect %s: %s",
             socket_path, strerror(errno));
    /* A failed send is not final: a server that refuses a request still answers why. */
    int send_errno = send_all(fd, req.data, req.len) < 0 ? errno : 0;
    shutdown(fd, SHUT_WR);

    struct buf resp = {0};
    for (;;) {
        buf_reserve(&resp, 65536);
        ssize_t n = recv(fd, resp.data + resp.len, 65536, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                fail(ERR_TRY_AGAIN, "try again later: the kovn node agent did not answer",
                     "no answer within %d s on %s", TIMEOUT_SECONDS, socket_path);
            if (resp.len == 0 && send_errno == 0) send_errno = errno;
            break;
        }
        if (n == 0) break;
        resp.len += (size_t)n;
        resp.data[resp.len] = '\0';
        if (resp.len > MAX_RESPONSE) fail(ERR_IO, "I/O failure", "answer exceeds %d bytes", MAX_RESPONSE);
    }
    close(fd);

    char *nl = resp.len ? memchr(resp.data, '\n', resp.len) : NULL;
    /* The status line is 1 to 3 decimal digits and nothing else (strtol would take " 0" and "+0"). */
    size_t digits = nl ? strspn(resp.data, "0123456789") : 0;
    long status = (nl && digits >= 1 && digits <= 3 && resp.data + digits == nl) ? strtol(resp.data, NULL, 10) : -1;
    if (status < 0 || status > 255) {
        if (send_errno)
            fail(ERR_IO, "I/O failure", "sending to %s: %s", socket_path, strerror(send_errno));
        fail(ERR_IO, "I/O failure", "no valid answer from the kovn node agent on %s", socket_path);
    }
    size_t body = (size_t)(nl + 1 - resp.data);
    if (resp.len > body) fwrite(resp.data + body, 1, resp.len - body, stdout);
    if (resp.len > body && resp.data[resp.len - 1] != '\n') fputc('\n', stdout);
    fflush(stdout);
    return (int)status;
}
