/*
 * kovn-netutil: the sandbox's in-pod network helper.
 *
 *   kovn-netutil serve NAME PROTO/PORT...   serve TCP (answer NAME and close) and UDP (echo NAME)
 *   kovn-netutil serve-peer NAME PROTO/PORT...  the same, answering "NAME from <source address>":
 *                                           what a host outside the cluster sees (SNAT)
 *   kovn-netutil probe PROTO HOST PORT MS   one connection attempt; prints and exits with
 *                                           0 "allowed", 1 "denied (timeout)", 2 "refused"
 *   kovn-netutil flood HOST PORT MS         a UDP datagram every millisecond for MS ms, from the
 *                                           first moment (a pod whose traffic starts at once);
 *                                           prints "sent N errors E"
 *   kovn-netutil count PORT MS              counts UDP datagrams to PORT for MS ms or until
 *                                           SIGTERM; prints "received N first T1 last T2"
 *                                           (T: wall-clock ms of the first and last, -1 if none)
 *
 * It runs inside a pod's network namespace (ip netns exec), one small process per pod, so a
 * sandbox with hundreds of pods costs no JVMs. C with poll(): no dependencies beyond libc.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 64

static int parse_proto_port(const char *spec, int *udp, int *port) {
    const char *slash = strchr(spec, '/');
    if (!slash) return -1;
    if (strncasecmp(spec, "tcp", (size_t)(slash - spec)) == 0 && slash - spec == 3) *udp = 0;
    else if (strncasecmp(spec, "udp", (size_t)(slash - spec)) == 0 && slash - spec == 3) *udp = 1;
    else return -1;
    char *end;
    long p = strtol(slash + 1, &end, 10);
    if (*end || p < 1 || p > 65535) return -1;
    *port = (int)p;
    return 0;
}

/* Binds a dual-stack socket (IPv6 any with V6ONLY off) so IPv4 and IPv6 clients both reach it. */
static int listen_on(int udp, int port) {
    int fd = socket(AF_INET6, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int family6 = fd >= 0;
    if (!family6) fd = socket(AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1, zero = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int rc;
    if (family6) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port), .sin6_addr = in6addr_any};
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_ANY)};
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    }
    if (rc < 0 || (!udp && listen(fd, 128) < 0)) { close(fd); return -1; }
    return fd;
}

/* "NAME from ADDR\n" (IPv4-mapped IPv6 sources shown as IPv4). */
static int peer_reply(char *out, size_t size, const char *name, const struct sockaddr_storage *from) {
    char host[INET6_ADDRSTRLEN] = "?";
    if (from->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)from;
        if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr)) inet_ntop(AF_INET, &a->sin6_addr.s6_addr[12], host, sizeof host);
        else inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    } else if (from->ss_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)from)->sin_addr, host, sizeof host);
    }
    return snprintf(out, size, "%s from %s\n", name, host);
}

static int serve(const char *name, int n, char **specs, int show_peer) {
    struct pollfd pfd[MAX_PORTS];
    int udp[MAX_PORTS];
    if (n > MAX_PORTS) { fprintf(stderr, "kovn-netutil: at most %d ports\n", MAX_PORTS); return 64; }
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < n; i++) {
        int port;
        if (parse_proto_port(specs[i], &udp[i], &port) < 0) {
            fprintf(stderr, "kovn-netutil: bad port spec '%s' (want tcp/N or udp/N)\n", specs[i]);
            return 64;
        }
        pfd[i].fd = listen_on(udp[i], port);
        pfd[i].events = POLLIN;
        if (pfd[i].fd < 0) { fprintf(stderr, "kovn-netutil: cannot listen on %s: %s\n", specs[i], strerror(errno)); return 1; }
    }
    char reply[300];
    int len = snprintf(reply, sizeof reply, "%s\n", name);
    printf("kovn-netutil: serving %d port(s) as %s\n", n, name);
    fflush(stdout);
    for (;;) {
        if (poll(pfd, (nfds_t)n, -1) < 0) { if (errno == EINTR) continue; return 1; }
        for (int i = 0; i < n; i++) {
            if (!(pfd[i].revents & POLLIN)) continue;
            if (udp[i]) {
                char buf[2048];
                struct sockaddr_storage from; socklen_t fl = sizeof from;
                ssize_t r = recvfrom(pfd[i].fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
                if (r >= 0 && show_peer) {
                    char pr[400];
                    int pl = peer_reply(pr, sizeof pr, name, &from);
                    printf("udp %s", pr + strlen(name) + 1);
                    fflush(stdout);
                    sendto(pfd[i].fd, pr, (size_t)pl, 0, (struct sockaddr *)&from, fl);
                } else if (r >= 0) sendto(pfd[i].fd, reply, (size_t)len, 0, (struct sockaddr *)&from, fl);
            } else {
                struct sockaddr_storage from; socklen_t fl = sizeof from;
                int c = accept4(pfd[i].fd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
                if (c >= 0 && show_peer) {
                    char pr[400];
                    int pl = peer_reply(pr, sizeof pr, name, &from);
                    printf("tcp %s", pr + strlen(name) + 1);
                    fflush(stdout);
                    (void)!write(c, pr, (size_t)pl);
                    close(c);
                } else if (c >= 0) { (void)!write(c, reply, (size_t)len); close(c); }
            }
        }
    }
}

static long now_ms(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static int verdict(int code, const char *answer) {
    static const char *words[] = {"allowed", "denied (timeout)", "refused"};
    if (code == 0 && answer && *answer) printf("%s %s\n", words[code], answer);
    else printf("%s\n", words[code]);
    return code;
}

static int probe(const char *proto, const char *host, const char *port, long timeout_ms) {
    int udp = strcasecmp(proto, "udp") == 0;
    if (!udp && strcasecmp(proto, "tcp") != 0) { fprintf(stderr, "kovn-netutil: probe takes tcp or udp\n"); return 64; }
    struct addrinfo hints = {.ai_socktype = udp ? SOCK_DGRAM : SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV}, *ai;
    if (getaddrinfo(host, port, &hints, &ai) != 0) { fprintf(stderr, "kovn-netutil: bad address %s port %s\n", host, port); return 64; }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { perror("socket"); return 64; }
    long deadline = now_ms() + timeout_ms;
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    freeaddrinfo(ai);
    if (rc < 0 && errno != EINPROGRESS) return verdict(errno == ECONNREFUSED ? 2 : 1, NULL);
    char answer[300] = "";
    if (udp) {
        /* Retransmit every 300 ms: the first packet of a new flow may be lost while flows install. */
        while (now_ms() < deadline) {
            (void)!send(fd, "probe\n", 6, 0);
            struct pollfd p = {.fd = fd, .events = POLLIN};
            long wait = deadline - now_ms(); if (wait > 300) wait = 300;
            if (poll(&p, 1, (int)wait) > 0) {
                ssize_t r = recv(fd, answer, sizeof answer - 1, 0);
                if (r < 0) return verdict(errno == ECONNREFUSED ? 2 : 1, NULL);
                answer[r] = 0; answer[strcspn(answer, "\n")] = 0;
                return verdict(0, answer);
            }
        }
        return verdict(1, NULL);
    }
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    long wait = deadline - now_ms();
    if (poll(&p, 1, wait > 0 ? (int)wait : 0) <= 0) return verdict(1, NULL);
    int err = 0; socklen_t el = sizeof err;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
    if (err) return verdict(err == ECONNREFUSED ? 2 : 1, NULL);
    p.events = POLLIN;
    wait = deadline - now_ms();
    if (poll(&p, 1, wait > 0 ? (int)wait : 0) > 0) {
        ssize_t r = read(fd, answer, sizeof answer - 1);
        if (r > 0) { answer[r] = 0; answer[strcspn(answer, "\n")] = 0; }
    }
    return verdict(0, answer);
}

static long wall_ms(void) {
    struct timespec t; clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static int flood(const char *host, const char *port, long duration_ms) {
    struct addrinfo hints = {.ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV}, *ai;
    if (getaddrinfo(host, port, &hints, &ai) != 0) { fprintf(stderr, "kovn-netutil: bad address %s port %s\n", host, port); return 64; }
    int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { perror("socket"); return 64; }
    long sent = 0, errors = 0, start = now_ms();
    char buf[64];
    for (long seq = 0; now_ms() - start < duration_ms; seq++) {
        int len = snprintf(buf, sizeof buf, "%ld %ld\n", seq, wall_ms());
        /* sendto, not connect+send: an ICMP error must not make later datagrams fail */
        if (sendto(fd, buf, (size_t)len, 0, ai->ai_addr, ai->ai_addrlen) < 0) errors++; else sent++;
        struct timespec ms = {0, 1000000L};
        nanosleep(&ms, NULL);
    }
    freeaddrinfo(ai);
    printf("sent %ld errors %ld\n", sent, errors);
    return 0;
}

static volatile sig_atomic_t stop_counting;
static void on_term(int sig) { (void)sig; stop_counting = 1; }

static int count(int port, long duration_ms) {
    int fd = listen_on(1, port);
    if (fd < 0) { fprintf(stderr, "kovn-netutil: cannot listen on udp/%d: %s\n", port, strerror(errno)); return 1; }
    struct sigaction sa = {.sa_handler = on_term};
    sigaction(SIGTERM, &sa, NULL);
    printf("counting udp/%d\n", port);
    fflush(stdout);
    long received = 0, first = -1, last = -1, end = now_ms() + duration_ms;
    while (!stop_counting && now_ms() < end) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 50) <= 0) continue;
        char buf[2048];
        while (recv(fd, buf, sizeof buf, 0) >= 0) {
            last = wall_ms();
            if (first < 0) first = last;
            received++;
        }
    }
    printf("received %ld first %ld last %ld\n", received, first, last);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "serve") == 0) return serve(argv[2], argc - 3, argv + 3, 0);
    if (argc >= 4 && strcmp(argv[1], "serve-peer") == 0) return serve(argv[2], argc - 3, argv + 3, 1);
    if (argc == 6 && strcmp(argv[1], "probe") == 0) return probe(argv[2], argv[3], argv[4], atol(argv[5]));
    if (argc == 5 && strcmp(argv[1], "flood") == 0) return flood(argv[2], argv[3], atol(argv[4]));
    if (argc == 4 && strcmp(argv[1], "count") == 0) return count(atoi(argv[2]), atol(argv[3]));
    fprintf(stderr, "usage: kovn-netutil serve NAME tcp/PORT|udp/PORT...\n"
                    "       kovn-netutil serve-peer NAME tcp/PORT|udp/PORT...\n"
                    "       kovn-netutil probe tcp|udp HOST PORT TIMEOUT_MS\n"
                    "       kovn-netutil flood HOST PORT DURATION_MS\n"
                    "       kovn-netutil count PORT DURATION_MS\n");
    return 64;
}
