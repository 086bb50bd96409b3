#!/usr/bin/env python3
"""Attacks on the served surface of a real `dra-controller run` (issue 37).

  endpoint-attacks.py BINARY KUBECONFIG [--budget SECONDS] [--only ATTACK,...]
  endpoint-attacks.py --attach PID PROBE_PORT METRICS_PORT [--secure]
      Attacks a process that is already running (not stopped afterwards).

Starts the binary twice against the cluster of KUBECONFIG, one after the
other, with its probe and metrics servers on free ports of 127.0.0.1: plain
/metrics first, then --metrics-secure (HTTPS, TokenReview and
SubjectAccessReview), and, when $DRA_KUBECTL is set, a third time with the
Alertmanager webhook (HTTPS, TokenReview and SubjectAccessReview; the
DeviceHealth CRDs applied first) for the webhook's own attacks. Each attack runs for a bounded number of connections
and seconds while a monitor asks /healthz (must answer 200 within 1 s) and
/metrics (must answer within 2 s); afterwards the process must be alive and
its CPU back to idle. Only 127.0.0.1 is targeted; the processes started are
stopped by PID whatever happens. With $DRA_KUBECTL set, a service account
token allowed to get /metrics checks the secure scrape for 200, and issue
47's attacks run: while two client addresses (127.0.0.1, 127.0.0.2) flood
made-up tokens, 16 freshly minted tokens of an identity let in before (from
127.0.0.1) and 16 of a new one (from 127.0.0.3) must each get 200 on /metrics
and on /alertmanager; 64 connections without a valid token sending 4 MiB
bodies to the webhook must keep the process's RSS under 100 MB; and TLS
clients with a 5 ms round trip must mostly finish their handshake during a
connect flood. Connections come from 127.0.0.0/8 source addresses (Linux
routes the whole block to loopback).

Prints one line per attack and a JSON summary; exits 1 when any check fails.
Only the Python standard library is used.
"""
import argparse
import base64
import json
import os
import re
import select
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"
HEALTHZ_LIMIT_S = 1.0
METRICS_LIMIT_S = 2.0
ATTACK_SECONDS = 3.0
IDLE_CPU_FRACTION = 0.15  # of one core, over a one-second sample
IDLE_WAIT_S = 8.0  # connections may hold on until their 5 s deadline

STARTED = []  # Popen objects, stopped by PID at exit


def stop_started():
    for proc in STARTED:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in STARTED:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def on_signal(signum, _frame):
    stop_started()
    sys.exit(128 + signum)


# ---------------------------------------------------------------- clients


def connect(port, tls, timeout, source=None):
    """`source`: the loopback address to connect from (127.0.0.2, ...): one
    client per address, as the server tells clients apart by address."""
    sock = socket.create_connection((HOST, port), timeout=timeout,
                                    source_address=(source, 0) if source else None)
    if not tls:
        return sock
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # the self-signed serving certificate
    return ctx.wrap_socket(sock, server_hostname="localhost")


def exchange(port, data, tls=False, timeout=5.0, source=None):
    """Sends `data` (all of it, even after an answer) and reads until close."""
    try:
        sock = connect(port, tls, timeout, source)
    except OSError:
        return b""
    if tls:
        return tls_exchange(sock, data, time.monotonic() + timeout)
    received = bytearray()

    def send_all():
        try:
            sock.sendall(data)
        except OSError:
            pass

    sender = threading.Thread(target=send_all, daemon=True)
    sender.start()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    except OSError:
        pass
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
    sender.join(timeout)
    return bytes(received)


def tls_exchange(sock, data, deadline):
    """exchange() on a TLS socket, in this thread only: an SSL object must
    not be written by one thread while another reads it (OpenSSL is not
    thread-safe per connection), so writes and reads interleave here."""
    received = bytearray()
    pending = memoryview(data)
    sock.setblocking(False)
    try:
        while time.monotonic() < deadline:
            if pending:
                try:
                    pending = pending[sock.send(pending[:65536]):]
                except (ssl.SSLWantWriteError, ssl.SSLWantReadError):
                    pass
                except OSError:
                    pending = memoryview(b"")
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
                continue
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
                pass
            except OSError:
                break
            wait = max(0.0, min(0.05, deadline - time.monotonic()))
            select.select([sock], [sock] if pending else [], [], wait)
    finally:
        sock.close()
    return bytes(received)


def status_of(response):
    m = re.match(rb"HTTP/1\.1 (\d{3}) ", response)
    return int(m.group(1)) if m else None


def header_of(response, name):
    head = response.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    m = re.search(r"\r\n" + re.escape(name) + r": ([^\r]*)", head, re.I)
    return m.group(1) if m else None


def timed_get(port, path, tls=False, token=None, method="GET", limit=2.0, source=None):
    """(status or None, seconds) of one request that must end within `limit`."""
    start = time.monotonic()
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    request = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\n{auth}\r\n".encode()
    response = exchange(port, request, tls=tls, timeout=limit, source=source)
    return status_of(response), time.monotonic() - start


# ---------------------------------------------------------------- the process


class Attached:
    """A process started elsewhere: attacked, never stopped."""

    def __init__(self, pid, probe_port, metrics_port, secure):
        self.pid, self.probe_port, self.metrics_port, self.secure = pid, probe_port, metrics_port, secure
        self.webhook_port = None

    def alive(self):
        return os.path.exists(f"/proc/{self.pid}")

    def cpu_seconds(self):
        return Controller.cpu_of(self.pid)

    def wait_idle(self):
        return Controller.wait_idle(self)

    def died(self):
        return "the process died"


class Controller:
    def __init__(self, binary, kubeconfig, secure, workdir, webhook=False):
        name = "controller-webhook" if webhook else ("controller-secure" if secure else "controller")
        self.log_path = os.path.join(workdir, name + ".log")
        args = [binary, "run", "--kubeconfig", kubeconfig,
                "--health-probe-bind-address", f"{HOST}:0", "--metrics-bind-address", f"{HOST}:0"]
        if secure:
            args.append("--metrics-secure")
        if webhook:
            apply_crds()
            args += ["--alertmanager-webhook-bind-address", f"{HOST}:0"]
        self.secure = secure
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        STARTED.append(self.proc)
        self.probe_port = self.wait_port(r"serving probes on \S+ .* port=(\d+)")
        self.metrics_port = self.wait_port(r"serving metrics on \S+ .* port=(\d+)")
        self.webhook_port = None
        if "--alertmanager-webhook-bind-address" in args:
            # Served once the device inventory has synced.
            self.webhook_port = self.wait_port(r"serving the Alertmanager webhook on \S+ .* port=(\d+)",
                                               timeout=60.0)

    def wait_port(self, pattern, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"dra-controller exited {self.proc.returncode}: see {self.log_path}")
            with open(self.log_path) as f:
                m = re.search(pattern, f.read())
            if m:
                return int(m.group(1))
            time.sleep(0.1)
        raise SystemExit(f"no '{pattern}' in {self.log_path} within {timeout} s")

    def alive(self):
        return self.proc.poll() is None

    def died(self):
        return f"the process died (exit {self.proc.returncode})"

    @staticmethod
    def cpu_of(pid):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def cpu_seconds(self):
        return Controller.cpu_of(self.proc.pid)

    def wait_idle(self):
        """Fraction of a core over the last one-second sample once idle, or the last seen."""
        deadline = time.monotonic() + IDLE_WAIT_S
        fraction = None
        while time.monotonic() < deadline and self.alive():
            before = self.cpu_seconds()
            time.sleep(1.0)
            fraction = self.cpu_seconds() - before
            if fraction <= IDLE_CPU_FRACTION:
                break
        return fraction

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            return "SIGTERM ignored for 30 s"
        self.log.close()
        return None if code == 0 else f"exit {code} after SIGTERM"


# ---------------------------------------------------------------- attacks
# Each takes (controller, stop_event) and returns a list of problems. Loops
# are bounded by count and by the stop event (set after ATTACK_SECONDS).

def expect(results, port, data, statuses, what, tls=False):
    got = status_of(exchange(port, data, tls=tls))
    if got not in statuses:
        results.append(f"{what}: status {got}, want one of {sorted(statuses, key=str)}")


def both_ports(c):
    return [c.probe_port] + ([] if c.secure else [c.metrics_port])


def malformed_request_lines(c, _stop):
    problems = []
    for port in both_ports(c):
        for line in [b"GARBAGE\r\n\r\n", b"GET /healthz\r\n\r\n", b"GET /healthz HTTP/9.9\r\n\r\n",
                     b"GET healthz HTTP/1.1\r\n\r\n", b"\x00\x01\x02\r\n\r\n",
                     b"GET /healthz HTTP/1.1\n\n", b"G\xffT /healthz HTTP/1.1\r\n\r\n",
                     b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"]:
            expect(problems, port, line, {400}, f"request line {line[:24]!r} on {port}")
    return problems


def malformed_headers(c, _stop):
    problems = []
    for port in both_ports(c):
        for headers in [b"No colon\r\n", b"Bad Name: x\r\n", b": empty\r\n", b"X: a\rb\r\n",
                        b"Content-Length: abc\r\n", b"Content-Length: 1\r\nContent-Length: 2\r\n"]:
            expect(problems, port, b"GET /healthz HTTP/1.1\r\n" + headers + b"\r\n", {400},
                   f"header {headers[:24]!r} on {port}")
    return problems


def bodies_on_get_and_post(c, _stop):
    problems = []
    for port in both_ports(c):
        path = b"/healthz" if port == c.probe_port else b"/metrics"
        expect(problems, port, b"POST " + path + b" HTTP/1.1\r\nContent-Length: 1\r\n\r\nx", {405},
               f"POST {path!r} with a body")
        expect(problems, port, b"GET " + path + b" HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", {413},
               f"GET {path!r} with a body")
        expect(problems, port, b"GET " + path + b" HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"3\r\nabc\r\n0\r\n\r\n", {413}, f"GET {path!r} with a chunked body")
        expect(problems, port, b"POST " + path + b" HTTP/1.1\r\nContent-Length: 1000000\r\n\r\n" +
               b"x" * 1000000, {405}, f"POST {path!r} with 1 MB")
    return problems


def conflicting_length(c, _stop):
    problems = []
    for port in both_ports(c):
        expect(problems, port, b"POST /healthz HTTP/1.1\r\nContent-Length: 4\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", {400}, "CL then TE")
        expect(problems, port, b"POST /healthz HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
               b"Content-Length: 4\r\n\r\n0\r\n\r\n", {400}, "TE then CL")
    return problems


def long_request_line(c, _stop):
    problems = []
    for port in both_ports(c):
        expect(problems, port, b"GET /healthz?" + b"a" * 200_000 + b" HTTP/1.1\r\n\r\n", {431},
               "200 KB request line")
    return problems


def many_headers(c, _stop):
    headers = b"".join(b"X-H%d: v\r\n" % i for i in range(20_000))
    problems = []
    for port in both_ports(c):
        expect(problems, port, b"GET /healthz HTTP/1.1\r\n" + headers + b"\r\n", {431},
               "20,000 headers")
    return problems


def tls_on_plain_port(c, _stop):
    hello = bytes.fromhex("160301006801000064030300") + os.urandom(32) + b"\x00\x00\x02\x13\x01\x01\x00"
    problems = []
    for port in both_ports(c):
        expect(problems, port, hello, {400}, "a TLS ClientHello")
    return problems


def path_traversal(c, _stop):
    problems = []
    for path in [b"/healthz/../etc/passwd", b"/healthz/%2e%2e/x", b"//healthz", b"/../healthz",
                 b"/healthz\\..\\x", b"/readyz/./x"]:
        expect(problems, c.probe_port, b"GET " + path + b" HTTP/1.1\r\n\r\n", {404},
               f"path {path!r}")
    return problems


def head_and_options(c, _stop):
    problems = []
    response = exchange(c.probe_port, b"HEAD /healthz HTTP/1.1\r\n\r\n")
    if status_of(response) not in (200, 503) or response.split(b"\r\n\r\n", 1)[1:] != [b""]:
        problems.append(f"HEAD /healthz: {response[:80]!r}")
    response = exchange(c.probe_port, b"OPTIONS /healthz HTTP/1.1\r\n\r\n")
    if status_of(response) != 405 or header_of(response, "Allow") != "GET, HEAD":
        problems.append(f"OPTIONS /healthz: {response[:120]!r}")
    expect(problems, c.probe_port, b"OPTIONS * HTTP/1.1\r\n\r\n", {400}, "OPTIONS *")
    return problems


def spinning(c, stop):
    """16 clients sending junk as fast as they can, reconnecting at once."""
    def spin(i):
        junk = b"GET /healthz HTTP/1.1\r\n" + b"x" * 65536 if i % 2 else os.urandom(65536)
        for _ in range(2000):
            if stop.is_set():
                return
            exchange(c.probe_port if i % 4 < 2 or c.secure else c.metrics_port, junk, timeout=2)
    return run_threads(spin, 16)


def idle_and_slowloris(c, stop):
    """200 idle sockets plus 200 sending a header byte every 100 ms, per port."""
    socks = []
    try:
        for port in both_ports(c) + ([c.metrics_port] if c.secure else []):
            for _ in range(200):
                try:
                    socks.append(socket.create_connection((HOST, port), timeout=2))
                except OSError:
                    break
        trickle = b"GET /healthz HTTP/1.1\r\nX-Slow: " + b"a" * 1000
        for i in range(100):
            if stop.is_set():
                break
            for sock in socks[1::2]:
                try:
                    sock.send(trickle[i:i + 1])
                except OSError:
                    pass
            stop.wait(0.1)
    finally:
        for sock in socks:
            sock.close()
    return []


def slow_readers(c, stop):
    """16 clients reading a large /metrics a few bytes at a time."""
    if c.secure:
        return []

    def read_slowly(_i):
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(2)
            sock.connect((HOST, c.metrics_port))
            sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            for _ in range(100):
                if stop.is_set() or not sock.recv(16):
                    break
                stop.wait(0.05)
            sock.close()
        except OSError:
            pass
    return run_threads(read_slowly, 16)


def tls_garbage_on_secure_port(c, _stop):
    if not c.secure:
        return []
    problems = []
    for junk in [b"GET /metrics HTTP/1.1\r\n\r\n", b"\x16\x03\x01\x00\x40" + b"\xff" * 64,
                 os.urandom(100_000)]:
        start = time.monotonic()
        response = exchange(c.metrics_port, junk, timeout=6)
        if status_of(response) == 200:
            problems.append(f"garbage {junk[:16]!r} got 200")
        if time.monotonic() - start > 5.5:
            problems.append(f"garbage {junk[:16]!r} held the connection past the deadline")
    return problems


def unauthenticated_and_bad_tokens(c, stop):
    if not c.secure:
        return []
    problems = []
    for method, token, want in [("GET", None, {401}), ("HEAD", None, {401}),
                                ("GET", "not-a-token", {401})]:
        got, _ = timed_get(c.metrics_port, "/metrics", tls=True, token=token, method=method,
                           limit=5)
        if got not in want:
            problems.append(f"{method} /metrics with token {token!r}: {got}, want {want}")
    expect(problems, c.metrics_port, b"POST /metrics HTTP/1.1\r\nContent-Length: 1\r\n\r\nx",
           {405}, "POST with a body after the handshake", tls=True)

    # A flood of bad tokens: none may get in; each is refused (401) or,
    # beyond the review budget, limited (429), and answered. The monitor
    # checks that probes and scrapes with a valid token still get through.
    def flood(i):
        for n in range(50):
            if stop.is_set():
                return
            got, _ = timed_get(c.metrics_port, "/metrics", tls=True, token=f"bad-{i}-{n}", limit=5)
            if got not in (401, 429):
                problems.append(f"bad token: {got}")
    run_threads(flood, 8)
    return problems


def post(port, path, body, token=None, content_type="application/json", timeout=5.0, source=None):
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n{auth}Content-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    return status_of(exchange(port, head + body, tls=True, timeout=timeout, source=source))


def webhook_attacks(c, stop):
    """The Alertmanager webhook: every refusal before anything is written."""
    port = getattr(c, "webhook_port", None)
    if not port:
        return []
    problems = []
    payload = json.dumps({"version": "4", "status": "firing", "alerts": [
        {"status": "firing", "labels": {"alertname": "Attack", "UUID": "GPU-none"},
         "startsAt": "2026-12-05T07:31:10Z", "fingerprint": "attack"}]}).encode()
    cases = [
        ("no token", lambda: post(port, "/alertmanager", payload), {401}),
        ("bad token", lambda: post(port, "/alertmanager", payload, token="forged"), {401}),
        ("GET", lambda: timed_get(port, "/alertmanager", tls=True)[0], {405}),
        ("unknown path", lambda: post(port, "/alertmanager/x/../y", payload), {404}),
        ("body over 4 MiB", lambda: post(port, "/alertmanager", b"x" * (4 * 1024 * 1024 + 1)),
         {413, None}),
        ("plain HTTP on the TLS port",
         lambda: status_of(exchange(port, b"POST /alertmanager HTTP/1.1\r\n\r\n", timeout=6)),
         {None}),
    ]
    token = webhook_token()
    if token:
        cases += [
            ("malformed payload", lambda: post(port, "/alertmanager", b'{"version":"4"', token=token),
             {400}),
            ("wrong version", lambda: post(port, "/alertmanager", b'{"version":"3","alerts":[]}',
                                           token=token), {400}),
            ("deep nesting", lambda: post(port, "/alertmanager", b"[" * 200_000, token=token), {400}),
            ("unknown GPU", lambda: post(port, "/alertmanager", payload, token=token), {200}),
            ("text/plain body", lambda: post(port, "/alertmanager", payload, token=token,
                                             content_type="text/plain"), {415}),
            ("path under it", lambda: post(port, "/alertmanager/x", payload, token=token), {404}),
        ]
    for what, send, want in cases:
        got = send()
        if got not in want:
            problems.append(f"webhook {what}: {got}, want {sorted(want, key=str)}")

    def trickle(_i):
        # Slow senders hold a connection at most its 20 s deadline; the
        # monitor checks probes and scrapes stay answered meanwhile.
        try:
            sock = connect(port, True, 5)
            sock.sendall(b"POST /alertmanager HTTP/1.1\r\nContent-Length: 100\r\n\r\n")
            for _ in range(10):
                if stop.is_set():
                    break
                sock.sendall(b"x")
                time.sleep(0.2)
            sock.close()
        except OSError:
            pass
    run_threads(trickle, 16)
    return problems


def apply_crds():
    """The DeviceHealth CRDs, with kubectl on $KUBECONFIG; exits when they do not apply."""
    kubectl = os.environ["DRA_KUBECTL"]
    crds = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crds")
    for args in (["apply", "-k", crds],
                 ["wait", "--for=condition=Established", "crd", "--all", "--timeout=30s"]):
        done = subprocess.run([kubectl, *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise SystemExit(f"kubectl {' '.join(args)} failed (is KUBECONFIG set?): "
                             f"{done.stderr.strip()}")


def account_tokens(account, rule, count=1):
    """`count` freshly minted tokens of ServiceAccount default/`account`,
    bound to a ClusterRole of `rule` (kubectl create clusterrole flags),
    when kubectl is at hand; [] otherwise."""
    kubectl = os.environ.get("DRA_KUBECTL")
    if not kubectl:
        return []
    def run(*args):
        return subprocess.run([kubectl, *args], capture_output=True, text=True, timeout=30)
    run("create", "serviceaccount", account, "-n", "default")
    run("create", "clusterrole", account, *rule)
    run("create", "clusterrolebinding", account, f"--clusterrole={account}",
        f"--serviceaccount=default:{account}")
    tokens = []
    for _ in range(count):
        token = run("create", "token", account, "-n", "default", "--duration=10m")
        if token.returncode == 0:
            tokens.append(token.stdout.strip())
    return tokens


SENDER_RULE = ["--verb=post", "--non-resource-url=/alertmanager"]
SCRAPER_RULE = ["--verb=get", "--non-resource-url=/metrics"]


def webhook_token():
    """A token allowed to post /alertmanager, when kubectl is at hand."""
    tokens = account_tokens("endpoint-attack-alerts", SENDER_RULE)
    return tokens[0] if tokens else None


# ------------------------------------------- tokens that a flood cannot starve
# Clients are told apart by address: the flooders connect from 127.0.0.1
# (the address the fresh tokens of a known identity come from too) and
# 127.0.0.2; a never-seen identity comes from 127.0.0.3.
FLOOD_SOURCES = ["127.0.0.1", "127.0.0.2"]
NEW_CLIENT_SOURCE = "127.0.0.3"
FLOOD_WARMUP_S = 1.0
FLOOD_LIMIT_S = 60.0


def random_jwt():
    """Made-up tokens shaped like service account tokens (and some not)."""
    part = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    claims = json.dumps({"iss": "https://kubernetes.default.svc.cluster.local",
                         "sub": f"system:serviceaccount:x:{os.urandom(4).hex()}"}).encode()
    return ".".join([part(b'{"alg":"RS256"}'), part(claims), part(os.urandom(64))])


def flood_while(request, body):
    """Floods from FLOOD_SOURCES with made-up tokens while `body` runs;
    (body's problems, statuses the flood got)."""
    done = threading.Event()
    statuses = {}
    lock = threading.Lock()

    def flood(i):
        source = FLOOD_SOURCES[i % len(FLOOD_SOURCES)]
        deadline = time.monotonic() + FLOOD_LIMIT_S
        n = 0
        while not done.is_set() and time.monotonic() < deadline:
            token = random_jwt() if n % 2 else os.urandom(24).hex()
            got = request(token, source)
            with lock:
                statuses[got] = statuses.get(got, 0) + 1
            n += 1

    threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(FLOOD_WARMUP_S)
    try:
        problems = body()
    finally:
        done.set()
        for t in threads:
            t.join(10)
    return problems, statuses


def fresh_tokens_through_a_flood(what, request, known, new, want):
    """`known`: fresh tokens of an identity already let in (sent from a
    flooder's address); `new`: of an identity never seen (another address).
    Each must get `want` on its first request while the flood runs."""
    def body():
        problems = []
        for label, tokens, source in (("known identity", known, FLOOD_SOURCES[0]),
                                      ("new identity", new, NEW_CLIENT_SOURCE)):
            got = [request(token, source) for token in tokens]
            bad = [g for g in got if g != want]
            if len(tokens) < 16:
                problems.append(f"{what}: only {len(tokens)} fresh tokens of the {label} minted")
            if bad:
                problems.append(f"{what}: {len(bad)} of {len(tokens)} fresh tokens of the {label} "
                                f"refused during the flood: {bad[:5]}")
        return problems
    problems, statuses = flood_while(request, body)
    if not statuses.get(429):
        problems.append(f"{what}: the flood never hit a review budget ({statuses}): no test")
    if statuses.get(200):
        problems.append(f"{what}: made-up tokens got 200 ({statuses})")
    print(f"     {what}: flood statuses {statuses}", flush=True)
    return problems


def token_flood_on_metrics(c, _stop):
    """The done-when of issue 47 for /metrics."""
    if not c.secure or not os.environ.get("DRA_KUBECTL") or isinstance(c, Attached):
        return []
    known = account_tokens("endpoint-attack-scraper", SCRAPER_RULE, 16)
    new = account_tokens("endpoint-attack-scraper-new", SCRAPER_RULE, 16)
    request = lambda token, source: timed_get(c.metrics_port, "/metrics", tls=True, token=token,
                                               limit=5, source=source)[0]
    # The known identity was let in before the flood (the monitor's token is
    # the same ServiceAccount's).
    if request(scraper_token(), FLOOD_SOURCES[0]) != 200:
        return ["/metrics: the scraper's token is not let in without a flood"]
    return fresh_tokens_through_a_flood("/metrics", request, known, new, 200)


def paths_under_metrics(c, _stop):
    """Only /metrics itself is served: a path under it is no new question for
    the authorizer (each was a SubjectAccessReview), and bytes that are not
    UTF-8 get 404, never a 500 with an exception's text."""
    if not c.secure:
        return []
    token = scraper_token()
    if not token:
        return []
    problems = []
    for path in ["/metrics/x", "/metrics/" + os.urandom(4).hex(), "/metrics/\udcff\udcfe"]:
        raw = path.encode("utf-8", "surrogateescape")
        request = (b"GET " + raw + f" HTTP/1.1\r\nHost: {HOST}\r\n"
                   f"Authorization: Bearer {token}\r\n\r\n".encode())
        response = exchange(c.metrics_port, request, tls=True)
        if status_of(response) != 404:
            problems.append(f"GET {raw!r} with a valid token: {response[:60]!r}, want 404")
    return problems


def alert_payload():
    return json.dumps({"version": "4", "status": "firing", "alerts": [
        {"status": "firing", "labels": {"alertname": "Attack", "UUID": "GPU-none"},
         "startsAt": "2026-12-05T07:31:10Z", "fingerprint": "attack"}]}).encode()


def token_flood_on_webhook(c, _stop):
    """The done-when of issue 47 for /alertmanager."""
    port = getattr(c, "webhook_port", None)
    if not port or not os.environ.get("DRA_KUBECTL"):
        return []
    known = account_tokens("endpoint-attack-alerts", SENDER_RULE, 16)
    new = account_tokens("endpoint-attack-alerts-new", SENDER_RULE, 16)
    payload = alert_payload()
    request = lambda token, source: post(port, "/alertmanager", payload, token=token, source=source)
    if request(webhook_token(), FLOOD_SOURCES[0]) != 200:
        return ["/alertmanager: the sender's token is not let in without a flood"]
    return fresh_tokens_through_a_flood("/alertmanager", request, known, new, 200)


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        m = re.search(r"VmRSS:\s+(\d+) kB", f.read())
    return int(m.group(1)) * 1024 if m else 0


RSS_LIMIT = 100 * 1024 * 1024
BIG_BODY = 4 * 1024 * 1024


def unauthenticated_bodies(c, _stop):
    """64 connections without a valid token, each sending all but the last
    byte of a 4 MiB body and holding on: the process's RSS stays under
    RSS_LIMIT (nothing is read before the token is checked)."""
    port = getattr(c, "webhook_port", None)
    if not port:
        return []
    pid = c.proc.pid if isinstance(c, Controller) else c.pid
    chunk = b"x" * 65536
    release = threading.Event()
    sent_all = []

    def send(i):
        try:
            sock = connect(port, True, 10)
            sock.sendall((f"POST /alertmanager HTTP/1.1\r\nHost: {HOST}\r\n"
                          f"Authorization: Bearer made-up-{i}\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {BIG_BODY}\r\n\r\n").encode())
            sent = 0
            while sent < BIG_BODY - 1:
                piece = chunk[:BIG_BODY - 1 - sent]
                sock.sendall(piece)
                sent += len(piece)
            sent_all.append(i)
            release.wait(15)
            sock.close()
        except OSError:
            pass

    threads = [threading.Thread(target=send, args=(i,), daemon=True) for i in range(64)]
    before = rss_bytes(pid)
    peak = before
    for t in threads:
        t.start()
    deadline = time.monotonic() + 15
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        peak = max(peak, rss_bytes(pid))
        if len(sent_all) + sum(1 for t in threads if not t.is_alive()) >= 64:
            break  # every body is in (or refused): what is held now is held
        time.sleep(0.05)
    for _ in range(20):  # a second more of samples while they hold on
        peak = max(peak, rss_bytes(pid))
        time.sleep(0.05)
    release.set()
    for t in threads:
        t.join(10)
    print(f"     64 x 4 MiB unauthenticated: RSS {before / 2**20:.0f} MiB before, "
          f"peak {peak / 2**20:.0f} MiB ({len(sent_all)} sent their whole body but a byte)",
          flush=True)
    if peak >= RSS_LIMIT:
        return [f"RSS reached {peak / 2**20:.0f} MiB (limit {RSS_LIMIT / 2**20:.0f})"]
    return []


HANDSHAKE_LATENCY_S = 0.005
HANDSHAKE_CLIENTS = 40
HANDSHAKE_MIN_SHARE = 0.85


def slow_tls_status(port, request, latency, timeout=5.0):
    """The status a TLS client gets whose round trip takes `latency` (a
    remote Alertmanager), or None when its connection ended first."""
    # Everything before the connect, so that the ClientHello leaves with it,
    # as a compiled client's does.
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = ctx.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    hello = outgoing.read()
    try:
        sock = socket.create_connection((HOST, port), timeout=timeout)
        sock.sendall(hello)
    except OSError:
        return None
    received = b""
    try:
        while True:
            try:
                tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                pending = outgoing.read()
                if pending:
                    sock.sendall(pending)
                data = sock.recv(65536)
                if not data:
                    return None
                # The answer to the server's flight reaches it a round trip
                # after the flight left (the ClientHello goes with the
                # connection's last ACK, at once).
                time.sleep(latency)
                incoming.write(data)
        tls.write(request)
        sock.sendall(outgoing.read())
        while True:
            data = sock.recv(65536)
            if not data:
                break
            incoming.write(data)
            try:
                while True:
                    chunk = tls.read(65536)
                    if not chunk:
                        break
                    received += chunk
            except (ssl.SSLWantReadError, ssl.SSLZeroReturnError):
                pass
    except (OSError, ssl.SSLError):
        pass
    finally:
        sock.close()
    return status_of(received)


def handshakes_under_connect_flood(c, _stop):
    """New sockets as fast as 8 threads open them (each evicting an idle one)
    while TLS clients with a 5 ms round trip connect one after another: most
    must finish their handshake and get an answer."""
    port = getattr(c, "webhook_port", None) or (c.metrics_port if c.secure else None)
    if not port:
        return []
    done = threading.Event()

    def flood(_i):
        held = []
        while not done.is_set():
            try:
                held.append(socket.create_connection((HOST, port), timeout=1))
            except OSError:
                pass
            if len(held) > 32:
                held.pop(0).close()
        for sock in held:
            sock.close()

    threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    path = "/alertmanager" if getattr(c, "webhook_port", None) else "/metrics"
    request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
    answered = sum(1 for _ in range(HANDSHAKE_CLIENTS)
                   if slow_tls_status(port, request, HANDSHAKE_LATENCY_S) is not None)
    done.set()
    for t in threads:
        t.join(10)
    print(f"     {answered}/{HANDSHAKE_CLIENTS} TLS clients with a "
          f"{HANDSHAKE_LATENCY_S * 1000:.0f} ms round trip answered during a connect flood",
          flush=True)
    if answered < HANDSHAKE_MIN_SHARE * HANDSHAKE_CLIENTS:
        return [f"only {answered}/{HANDSHAKE_CLIENTS} TLS clients answered during a connect flood"]
    return []


def run_threads(target, count):
    threads = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(ATTACK_SECONDS + 10)
    return []


ATTACKS = [malformed_request_lines, malformed_headers, bodies_on_get_and_post, conflicting_length,
           long_request_line, many_headers, tls_on_plain_port, path_traversal, head_and_options,
           spinning, idle_and_slowloris, slow_readers, tls_garbage_on_secure_port,
           unauthenticated_and_bad_tokens, paths_under_metrics, token_flood_on_metrics,
           handshakes_under_connect_flood]
WEBHOOK_ATTACKS = [webhook_attacks, token_flood_on_webhook, unauthenticated_bodies,
                   handshakes_under_connect_flood]


# ---------------------------------------------------------------- monitor


class Monitor(threading.Thread):
    """Probes /healthz and /metrics while an attack runs."""

    def __init__(self, c, token):
        super().__init__(daemon=True)
        self.c, self.token = c, token
        self.stop = threading.Event()
        self.problems = []
        self.worst = {"healthz": 0.0, "metrics": 0.0}
        self.reconnects = {"healthz": 0, "metrics": 0}

    def run(self):
        while not self.stop.is_set():
            self.check("healthz", self.c.probe_port, "/healthz", False, None, HEALTHZ_LIMIT_S, {200})
            want = {200} if (self.token or not self.c.secure) else {401, 429}
            self.check("metrics", self.c.metrics_port, "/metrics", self.c.secure, self.token,
                       METRICS_LIMIT_S, want)
            self.stop.wait(0.2)

    def check(self, name, port, path, tls, token, limit, want):
        # Answered within `limit`, reconnecting inside it when a connection
        # ends unanswered: in a burst of hundreds of new sockets a
        # just-accepted probe connection can be evicted before its request
        # is read (docs/runtime.md, "Served surface").
        start = time.monotonic()
        got, _ = timed_get(port, path, tls=tls, token=token, limit=limit + 0.5)
        while got is None and time.monotonic() - start < limit - 0.05:
            self.reconnects[name] += 1
            time.sleep(0.05)
            got, _ = timed_get(port, path, tls=tls, token=token,
                               limit=limit + 0.5 - (time.monotonic() - start))
        took = time.monotonic() - start
        self.worst[name] = max(self.worst[name], took)
        if got not in want or took > limit:
            self.problems.append(f"{path}: status {got} after {took:.2f} s")


def run_attack(c, attack, token):
    monitor = Monitor(c, token)
    monitor.start()
    stop = threading.Event()
    timer = threading.Timer(ATTACK_SECONDS, stop.set)
    timer.start()
    start = time.monotonic()
    problems = list(attack(c, stop))
    stop.set()
    timer.cancel()
    # The monitor sees at least one round while the attack is on.
    monitor.stop.set()
    monitor.join(10)
    problems += monitor.problems
    took = time.monotonic() - start
    if not c.alive():
        problems.append(c.died())
        cpu = None
    else:
        cpu = c.wait_idle()
        if cpu is None or cpu > IDLE_CPU_FRACTION:
            problems.append(f"CPU not back to idle: {cpu} of a core")
    return {"attack": attack.__name__, "secure": c.secure, "seconds": round(took, 2),
            "healthz_worst_s": round(monitor.worst["healthz"], 3),
            "metrics_worst_s": round(monitor.worst["metrics"], 3),
            "reconnects": monitor.reconnects,
            "idle_cpu": None if cpu is None else round(cpu, 3), "problems": problems[:10]}


def scraper_token():
    """A token allowed to get /metrics, when kubectl is at hand."""
    tokens = account_tokens("endpoint-attack-scraper", SCRAPER_RULE)
    return tokens[0] if tokens else None


def report(results, c, attack, token):
    result = run_attack(c, attack, token)
    results.append(result)
    print(("FAIL " if result["problems"] else "ok   ") +
          f"{'secure' if c.secure else 'plain '} {attack.__name__}: "
          f"healthz<={result['healthz_worst_s']}s metrics<={result['metrics_worst_s']}s "
          f"cpu={result['idle_cpu']} reconnects={result['reconnects']} "
          f"{'; '.join(result['problems'])}", flush=True)
    return bool(result["problems"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?")
    parser.add_argument("kubeconfig", nargs="?")
    parser.add_argument("--budget", type=float, default=360, help="seconds for everything")
    parser.add_argument("--attach", nargs=3, type=int, metavar=("PID", "PROBE_PORT", "METRICS_PORT"))
    parser.add_argument("--secure", action="store_true", help="with --attach: metrics is HTTPS")
    parser.add_argument("--only", default="", help="comma-separated attack names to run (all when empty)")
    args = parser.parse_args()
    if not args.attach and not (args.binary and args.kubeconfig):
        parser.error("BINARY and KUBECONFIG, or --attach")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    deadline = time.monotonic() + args.budget
    results, failed = [], False
    workdir = tempfile.mkdtemp(prefix="endpoint-attacks-")
    try:
        if args.attach:
            targets = [lambda: Attached(*args.attach, args.secure)]
        else:
            targets = [lambda secure=secure: Controller(args.binary, args.kubeconfig, secure, workdir)
                       for secure in (False, True)]
            if os.environ.get("DRA_KUBECTL"):
                targets.append(lambda: Controller(args.binary, args.kubeconfig, False, workdir,
                                                  webhook=True))
        for make_target in targets:
            c = make_target()
            token = scraper_token() if c.secure and not args.attach else None
            chosen = WEBHOOK_ATTACKS if getattr(c, "webhook_port", None) else ATTACKS
            only = set(filter(None, args.only.split(",")))
            for attack in [a for a in chosen if not only or a.__name__ in only]:
                if time.monotonic() > deadline:
                    results.append({"attack": attack.__name__, "problems": ["out of time budget"]})
                    failed = True
                    break
                failed |= report(results, c, attack, token)
                if not c.alive():
                    break
            if not c.alive():
                failed = True
            elif isinstance(c, Controller):
                problem = c.stop()
                if problem:
                    results.append({"attack": "stop", "secure": c.secure, "problems": [problem]})
                    failed = True
    finally:
        stop_started()
    print(json.dumps({"failed": failed, "logs": workdir, "results": results}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
