"""etcd: three members of one Raft cluster, reached through etcd's JSON gateway.

Each member listens for clients and peers on its node's address; heartbeats every
100 ms and elections after 1 s, etcd's defaults otherwise (every write fsynced
before it is acknowledged). The client talks to the member beside it over HTTP
(`/v3/kv/range`, `/v3/kv/put`, `/v3/kv/txn`, the gateway etcd 3.4 serves on its
client port), so a client on the minority side of a partition keeps asking a
member that cannot reach the leader.

Reads are linearizable (etcd's default: a ReadIndex round through the leader) or,
with `serializable`, answered from the member's own store, which may be stale.
A cas is a transaction: compare the value, put on success. A connection refused
fails the op (nothing was sent); a timeout or an error reply leaves a write
indeterminate, since etcd may have committed it (a "request timed out" is often
committed later).
"""

import base64
import http.client
import json
import os
import time

import net
from workloads import Failed, Indeterminate

OP_TIMEOUT = 1.5


def _b64(text):
    return base64.b64encode(str(text).encode()).decode()


def _unb64(text):
    return base64.b64decode(text).decode()


class Gateway:
    """One keep-alive HTTP connection to a member's JSON gateway."""

    def __init__(self, ip, timeout):
        self.ip = ip
        self.timeout = timeout
        self.connection = None

    def close(self):
        if self.connection:
            self.connection.close()
        self.connection = None

    def post(self, path, body):
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.ip, 2379, timeout=self.timeout)
        try:
            self.connection.request("POST", path, json.dumps(body),
                                    {"Content-Type": "application/json"})
            response = self.connection.getresponse()
            data = response.read()
        except ConnectionRefusedError as error:
            self.close()
            raise Failed(f"connect: {error}") from error
        except (OSError, http.client.HTTPException) as error:
            self.close()
            raise Indeterminate(f"{path}: {error or 'timed out'}") from error
        try:
            reply = json.loads(data)
        except ValueError as error:
            raise Indeterminate(f"{path}: HTTP {response.status}, not JSON") from error
        if response.status != 200 or "error" in reply:
            raise Indeterminate(f"{path}: {reply.get('error') or reply.get('message')}")
        return reply


class EtcdCluster:
    nodes = ["n1", "n2", "n3"]
    binaries = ["etcd"]
    role = "leader"

    def __init__(self, network, run_dir, serializable=False):
        self.network = network
        self.run_dir = run_dir
        self.serializable = serializable
        self.servers = {}

    def start(self):
        peers = ",".join(f"{n}=http://{self.network.ip(n)}:2380" for n in self.nodes)
        for node in self.nodes:
            directory = os.path.join(self.run_dir, node)
            os.makedirs(directory, exist_ok=True)
            ip = self.network.ip(node)
            argv = ["etcd", "--name", node, "--data-dir", os.path.join(directory, "data"),
                    "--listen-client-urls", f"http://{ip}:2379",
                    "--advertise-client-urls", f"http://{ip}:2379",
                    "--listen-peer-urls", f"http://{ip}:2380",
                    "--initial-advertise-peer-urls", f"http://{ip}:2380",
                    "--initial-cluster", peers, "--initial-cluster-state", "new",
                    "--initial-cluster-token", self.network.run_id,
                    "--heartbeat-interval", "100", "--election-timeout", "1000",
                    "--logger", "zap", "--log-outputs", "stderr"]
            self.servers[node] = net.Service(self.network, node, argv,
                                             os.path.join(directory, "etcd.log"))
        for node in self.nodes:
            self.servers[node].start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.settled():
                return
            time.sleep(0.2)
        raise RuntimeError("etcd did not elect a leader within 30 s")

    def services(self):
        return list(self.servers.values())

    def stop(self):
        for service in self.services():
            service.stop()

    def status(self, node):
        """The member's id and the leader it knows of, or None."""
        try:
            with net.inside(self.network.namespace(node)):
                gateway = Gateway(self.network.ip(node), 0.5)
                gateway.connection = http.client.HTTPConnection(gateway.ip, 2379, timeout=0.5)
                gateway.connection.connect()
            try:
                reply = gateway.post("/v3/maintenance/status", {})
            finally:
                gateway.close()
            return reply["header"]["member_id"], reply.get("leader")
        except (OSError, Failed, Indeterminate, KeyError):
            return None

    def primary(self):
        """The leader most members name (the node the faults aim at)."""
        statuses = {node: self.status(node) for node in self.nodes}
        member_of = {s[0]: node for node, s in statuses.items() if s}
        votes = {}
        for s in statuses.values():
            if s and s[1] in member_of:
                votes[member_of[s[1]]] = votes.get(member_of[s[1]], 0) + 1
        return max(votes, key=votes.get) if votes else self.nodes[0]

    def settled(self):
        """Every member answers and all name the same leader."""
        statuses = [self.status(node) for node in self.nodes]
        # The gateway leaves `leader` out when it is 0 (proto3 omits defaults): no leader.
        return (all(statuses) and len({s[1] for s in statuses}) == 1
                and statuses[0][1] not in (None, "0"))

    def restart(self, node):
        self.servers[node].start()

    def process_of(self, node):
        return self.servers[node]

    def client(self, node, final=False):
        """A client beside `node`; the final reads' client reads linearizably whatever the
        scenario, so that a lost write counted at the end is lost, not merely unseen."""
        return EtcdClient(self, node, serializable=self.serializable and not final)


class EtcdClient:
    """Lives in the thread of one worker, inside its node's namespace."""

    def __init__(self, cluster, node, serializable):
        self.serializable = serializable
        self.server = node
        self.gateway = Gateway(cluster.network.ip(node), OP_TIMEOUT)

    def read(self, key):
        reply = self.gateway.post("/v3/kv/range",
                                  {"key": _b64(f"r{key}"), "serializable": self.serializable})
        kvs = reply.get("kvs") or []
        return int(_unb64(kvs[0]["value"])) if kvs and "value" in kvs[0] else None

    def write(self, key, value):
        self.gateway.post("/v3/kv/put", {"key": _b64(f"r{key}"), "value": _b64(value)})

    def cas(self, key, old, new):
        reply = self.gateway.post("/v3/kv/txn", {
            "compare": [{"key": _b64(f"r{key}"), "target": "VALUE", "result": "EQUAL",
                         "value": _b64(old)}],
            "success": [{"requestPut": {"key": _b64(f"r{key}"), "value": _b64(new)}}]})
        return bool(reply.get("succeeded"))

    def add(self, element):
        self.gateway.post("/v3/kv/put", {"key": _b64(f"set/{element}"), "value": _b64("1")})

    def read_set(self):
        reply = self.gateway.post("/v3/kv/range", {"key": _b64("set/"), "range_end": _b64("set0"),
                                                   "serializable": self.serializable})
        return {int(_unb64(kv["key"])[4:]) for kv in reply.get("kvs") or []}

    def close(self):
        self.gateway.close()
