#!/usr/bin/env python3
"""Change bursts for hack/bench/fleet-live.sh, timed from the client side.

  fleet-probe.py taint-latency KUBECONFIG LABEL ROUNDS CONCURRENCY
      Flips every DeviceHealth labelled LABEL=true between Degraded and
      Unknown ROUNDS times (CONCURRENCY objects at once, one flip of an object
      at a time) and times each PATCH until the DeviceTaintRule
      devicehealth-<name> with the new effect (NoSchedule / None) arrives
      through a watch opened before the burst.
  fleet-probe.py pod-churn KUBECONFIG NAMESPACE PODS CONCURRENCY METRICS_URL
      Creates PODS Pods asking for example.com/gpu that no scheduler takes
      (schedulerName fleet-bench-nobody), waits until the controller's
      dra_controller_extended_resource_pods_pending gauge counts them, deletes
      them (grace 0) and waits until it drops back.

Prints one JSON object. Only the Python standard library is used; the
kubeconfig must carry inline certificate data (as cluster.sh writes it).
"""
import base64
import concurrent.futures
import http.client
import json
import os
import re
import ssl
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request


class Api:
    def __init__(self, kubeconfig):
        text = open(kubeconfig).read()

        def field(name):
            m = re.search(r"^\s*" + name + r":\s*(\S+)\s*$", text, re.M)
            if not m:
                raise SystemExit(f"fleet-probe: {name} not in {kubeconfig}")
            return m.group(1)

        url = urllib.parse.urlparse(field("server"))
        self.host, self.port = url.hostname, url.port or 443
        self.dir = tempfile.mkdtemp(prefix="fleet-probe-")
        paths = {}
        for key in ("certificate-authority-data", "client-certificate-data", "client-key-data"):
            paths[key] = os.path.join(self.dir, key)
            with open(paths[key], "wb") as f:
                f.write(base64.b64decode(field(key)))
        self.context = ssl.create_default_context(cafile=paths["certificate-authority-data"])
        self.context.load_cert_chain(paths["client-certificate-data"], paths["client-key-data"])
        self.local = threading.local()

    def connection(self):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=60)
            self.local.conn = conn
        return conn

    def request(self, method, path, body=None, content_type="application/json"):
        for attempt in range(3):
            conn = self.connection()
            try:
                headers = {"Accept": "application/json"}
                if body is not None:
                    headers["Content-Type"] = content_type
                conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                if resp.status >= 300:
                    raise RuntimeError(f"{method} {path}: {resp.status} {data[:300]!r}")
                return json.loads(data) if data else None
            except (http.client.HTTPException, OSError):
                self.local.conn = None
                if attempt == 2:
                    raise

    def watch(self, path, on_event, stop):
        conn = http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=600)
        conn.request("GET", path, headers={"Accept": "application/json"})
        resp = conn.getresponse()
        if resp.status != 200:
            raise RuntimeError(f"watch {path}: {resp.status}")
        while not stop.is_set():
            line = resp.readline()
            if not line:
                break
            on_event(time.monotonic(), json.loads(line))
        conn.close()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else 0.0


HEALTHS = "/apis/dra-controller.dev/v1alpha1/devicehealths"
RULES = "/apis/resource.k8s.io/v1/devicetaintrules"


def taint_latency(api, label, rounds, concurrency):
    names = [h["metadata"]["name"] for h in
             api.request("GET", f"{HEALTHS}?labelSelector={label}%3Dtrue")["items"]]
    rules = api.request("GET", RULES)
    lock = threading.Condition()
    seen = {}  # rule name -> list of (time, effect)

    def on_event(at, event):
        obj = event.get("object", {})
        if event.get("type") not in ("ADDED", "MODIFIED"):
            return
        name = obj.get("metadata", {}).get("name", "")
        effect = obj.get("spec", {}).get("taint", {}).get("effect", "")
        with lock:
            seen.setdefault(name, []).append((at, effect))
            lock.notify_all()

    stop = threading.Event()
    rv = rules["metadata"]["resourceVersion"]
    watcher = threading.Thread(target=api.watch, args=(f"{RULES}?watch=1&resourceVersion={rv}", on_event, stop),
                               daemon=True)
    watcher.start()
    time.sleep(0.5)  # the watch request is on the wire before the first PATCH

    def flip_all(name):
        out = []
        for r in range(rounds):
            state, effect = ("Degraded", "NoSchedule") if r % 2 == 0 else ("Unknown", "None")
            sent = time.monotonic()
            api.request("PATCH", f"{HEALTHS}/{name}", {"spec": {"state": state}},
                        "application/merge-patch+json")
            rule = "devicehealth-" + name
            deadline = sent + 60
            with lock:
                while True:
                    hit = next((at for at, e in seen.get(rule, []) if at >= sent and e == effect), None)
                    if hit is not None or time.monotonic() > deadline:
                        break
                    lock.wait(1)
            out.append(None if hit is None else (hit - sent) * 1000)
        return out

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        results = [ms for batch in pool.map(flip_all, names) for ms in batch]
    wall = time.monotonic() - start
    stop.set()
    ok = [ms for ms in results if ms is not None]
    with lock:
        rule_events = sum(len(v) for v in seen.values())
    return {"healths": len(names), "flips": len(results), "missed": len(results) - len(ok),
            "p50_ms": round(percentile(ok, 0.5), 1), "p99_ms": round(percentile(ok, 0.99), 1),
            "max_ms": round(max(ok, default=0), 1), "wall_s": round(wall, 2),
            "flips_per_s": round(len(results) / wall, 1), "rule_events": rule_events}


def pending_gauge(metrics_url):
    text = urllib.request.urlopen(metrics_url, timeout=30).read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith("dra_controller_extended_resource_pods_pending{") and 'extended_resource="example.com/gpu"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


def wait_gauge(metrics_url, want, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pending_gauge(metrics_url) == want:
            return time.monotonic()
        time.sleep(0.1)
    raise SystemExit(f"fleet-probe: pods_pending gauge did not reach {want} in {timeout}s")


def pod_churn(api, namespace, pods, concurrency, metrics_url):
    base = pending_gauge(metrics_url)
    path = f"/api/v1/namespaces/{namespace}/pods"

    def pod(i):
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": f"churn-{i:06d}", "labels": {"fleet-churn": "true"}},
                "spec": {"schedulerName": "fleet-bench-nobody", "terminationGracePeriodSeconds": 0,
                         "containers": [{"name": "main", "image": "registry.example.com/cuda-app:1.0",
                                         "resources": {"limits": {"example.com/gpu": "1"}}}]}}

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(lambda i: api.request("POST", path, pod(i)), range(pods)))
    created = time.monotonic()
    counted = wait_gauge(metrics_url, base + pods, 300)
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(lambda i: api.request("DELETE", f"{path}/churn-{i:06d}?gracePeriodSeconds=0"), range(pods)))
    deleted = time.monotonic()
    gone = wait_gauge(metrics_url, base, 300)
    return {"pods": pods, "create_s": round(created - start, 2), "counted_after_create_s": round(counted - created, 2),
            "delete_s": round(deleted - counted, 2), "gone_after_delete_s": round(gone - deleted, 2),
            "events": 2 * pods, "wall_s": round(gone - start, 2),
            "api_events_per_s": round(2 * pods / ((created - start) + (deleted - counted)), 1),
            "end_to_end_events_per_s": round(2 * pods / (gone - start), 1)}


def main(argv):
    if len(argv) >= 5 and argv[1] == "taint-latency":
        result = taint_latency(Api(argv[2]), argv[3], int(argv[4]), int(argv[5]))
    elif len(argv) >= 7 and argv[1] == "pod-churn":
        result = pod_churn(Api(argv[2]), argv[3], int(argv[4]), int(argv[5]), argv[6])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
