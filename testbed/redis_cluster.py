"""Redis with Sentinel: five nodes, each a redis-server and a redis-sentinel.

n1 starts as the primary and n2-n5 replicate it; the five Sentinels (quorum 3)
watch it and fail over to the replica with the highest replication offset when a
majority of them cannot reach it for a second. Timeouts are shortened so that a
20-60 s test sees several failovers (down-after 1 s, failover-timeout 4 s,
replication ping 1 s); everything else is Redis 7.0's default. `down_after_ms` sets
Sentinel's down-after-milliseconds (Redis' default is 30 s): with 1 s, a kill of
0.5-3 s usually ends in a failover that races the restarted primary, and a primary
promoted a second earlier is sometimes declared down while its Sentinels reconnect;
with 5 s, a short kill ends before any Sentinel acts.

The client follows Redis' guide for Sentinel clients: ask the Sentinel (here the one
beside the client, on its side of any partition) where the primary is, check with ROLE
that the node named is a primary when connecting to it, send the commands there, and
ask the Sentinel again every half second and after any error. With `wait`, a
write is acknowledged only when `WAIT 2 1000` says two replicas (three copies in
all) have it; fewer leaves the write indeterminate, as it did take effect on the
primary. A cas is a Lua script (GET, compare, SET), atomic on the server.
"""

import os
import time

import net
import resp
from workloads import Failed, Indeterminate

MASTER = "ariadne"
CAS_SCRIPT = ("local v = redis.call('get', KEYS[1]) "
              "if v == ARGV[1] then redis.call('set', KEYS[1], ARGV[2]) return 1 end "
              "return 0")
OP_TIMEOUT = 1.5


class RedisCluster:
    nodes = ["n1", "n2", "n3", "n4", "n5"]
    binaries = ["redis-server", "redis-sentinel"]
    role = "primary"

    default_down_after_ms = 1000

    def __init__(self, network, run_dir, wait=False, aof=False, down_after_ms=None):
        self.network = network
        self.run_dir = run_dir
        self.wait = wait
        self.aof = aof
        self.down_after_ms = down_after_ms or self.default_down_after_ms
        self.servers = {}
        self.sentinels = {}

    def _configs(self, node):
        directory = os.path.join(self.run_dir, node)
        os.makedirs(directory, exist_ok=True)
        ip = self.network.ip(node)
        server = [f"bind {ip}", "port 6379", "protected-mode no", f"dir {directory}",
                  'save ""', "repl-diskless-sync-delay 0", "repl-ping-replica-period 1",
                  "repl-timeout 4"]
        if self.aof:
            server += ["appendonly yes", "appendfsync always"]
        if node != self.nodes[0]:
            server.append(f"replicaof {self.network.ip(self.nodes[0])} 6379")
        sentinel = [f"bind {ip}", "port 26379", "protected-mode no", f"dir {directory}",
                    f"sentinel monitor {MASTER} {self.network.ip(self.nodes[0])} 6379 3",
                    f"sentinel down-after-milliseconds {MASTER} {self.down_after_ms}",
                    f"sentinel failover-timeout {MASTER} 4000",
                    f"sentinel parallel-syncs {MASTER} 4"]
        paths = []
        for name, lines in (("redis.conf", server), ("sentinel.conf", sentinel)):
            path = os.path.join(directory, name)
            with open(path, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
            paths.append(path)
        return directory, paths

    def start(self):
        for node in self.nodes:
            directory, (server_conf, sentinel_conf) = self._configs(node)
            self.servers[node] = net.Service(self.network, node, ["redis-server", server_conf],
                                             os.path.join(directory, "redis.log"))
            self.sentinels[node] = net.Service(self.network, node,
                                               ["redis-sentinel", sentinel_conf],
                                               os.path.join(directory, "sentinel.log"))
        for node in self.nodes:
            self.servers[node].start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            role = self.query(self.nodes[0], 6379, "ROLE")
            if role and len(role[2]) == len(self.nodes) - 1:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the replicas did not attach to n1 within 20 s")
        for node in self.nodes:
            self.sentinels[node].start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            seen = [self.query(node, 26379, "SENTINEL", "SENTINELS", MASTER)
                    for node in self.nodes]
            if all(s is not None and len(s) == len(self.nodes) - 1 for s in seen):
                return
            time.sleep(0.2)
        raise RuntimeError("the Sentinels did not find each other within 20 s")

    def services(self):
        return list(self.servers.values()) + list(self.sentinels.values())

    def stop(self):
        for service in self.services():
            service.stop()

    def query(self, node, port, *command):
        """One command to a node's server (6379) or Sentinel (26379), from the controller;
        None when it cannot answer."""
        try:
            with net.inside(self.network.namespace(node)):
                connection = resp.Connection(self.network.ip(node), port, 0.5)
            try:
                return connection.call(*command)
            finally:
                connection.close()
        except (OSError, resp.ServerError):
            return None

    def primary(self):
        """The primary most Sentinels name (the node the faults aim at)."""
        votes = {}
        for node in self.nodes:
            answer = self.query(node, 26379, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)
            if answer:
                votes[answer[0]] = votes.get(answer[0], 0) + 1
        if not votes:
            return self.nodes[0]
        ip = max(votes, key=votes.get)
        return next((n for n in self.nodes if self.network.ip(n) == ip), self.nodes[0])

    def settled(self):
        """Every Sentinel names one primary, which says it is one, and every other node
        replicates it with its link up."""
        answers = [self.query(node, 26379, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)
                   for node in self.nodes]
        if any(a is None for a in answers) or len({a[0] for a in answers}) != 1:
            return False
        primary = answers[0][0]
        for node in self.nodes:
            info = self.query(node, 6379, "INFO", "replication") or ""
            if self.network.ip(node) == primary:
                if "role:master" not in info:
                    return False
            elif (f"master_host:{primary}" not in info
                  or "master_link_status:up" not in info):
                return False
        return True

    def restart(self, node):
        self.servers[node].start()

    def process_of(self, node):
        return self.servers[node]

    def client(self, node, final=False):
        """A client beside `node` (the final reads' client is no different here)."""
        return RedisClient(self, node)


class RedisClient:
    """Lives in the thread of one worker, inside its node's namespace."""

    def __init__(self, cluster, node):
        self.cluster = cluster
        self.ip = cluster.network.ip(node)
        self.node_of = {cluster.network.ip(n): n for n in cluster.nodes}
        self.server = None  # the node the last command went to
        self.sentinel = None
        self.primary = None
        self.refresh_at = 0.0

    def _drop(self):
        if self.primary:
            self.primary.close()
        self.primary = None

    def _primary_address(self):
        try:
            if self.sentinel is None:
                self.sentinel = resp.Connection(self.ip, 26379, 0.5)
            return self.sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)
        except (OSError, resp.ServerError):
            if self.sentinel:
                self.sentinel.close()
            self.sentinel = None
            return None

    def _connection(self):
        now = time.monotonic()
        if self.primary is None or now >= self.refresh_at:
            address = self._primary_address()
            if address is None and self.primary is None:
                raise Failed("no Sentinel answer")
            if address is not None and (self.primary is None
                                        or self.primary.address != (address[0], int(address[1]))):
                self._drop()
                self.server = self.node_of.get(address[0], address[0])
                try:
                    self.primary = resp.Connection(address[0], int(address[1]), OP_TIMEOUT)
                    role = self.primary.call("ROLE")[0]
                except (OSError, resp.ServerError) as error:
                    self._drop()
                    raise Failed(f"connect: {error}") from error
                if role != "master":
                    # A Sentinel's stale answer: Redis' guide for Sentinel clients says to
                    # check the role of the node it names before using it.
                    self._drop()
                    raise Failed(f"{self.server} is a {role}, not the primary")
            self.refresh_at = now + 0.5
        return self.primary

    def _call(self, *command):
        connection = self._connection()
        try:
            return connection.call(*command)
        except resp.ServerError as error:
            self.refresh_at = 0.0
            raise Failed(str(error)) from error
        except OSError as error:
            self._drop()
            raise Indeterminate(f"{command[0]}: {error or 'timed out'}") from error

    def _acknowledge(self):
        if not self.cluster.wait:
            return
        try:
            replicas = self.primary.call("WAIT", 2, 1000)
        except (OSError, resp.ServerError) as error:
            self._drop()
            raise Indeterminate(f"WAIT: {error or 'timed out'}") from error
        if replicas < 2:
            raise Indeterminate(f"WAIT: {replicas} of 2 replicas")

    def read(self, key):
        value = self._call("GET", f"r{key}")
        return None if value is None else int(value)

    def write(self, key, value):
        self._call("SET", f"r{key}", value)
        self._acknowledge()

    def cas(self, key, old, new):
        if self._call("EVAL", CAS_SCRIPT, 1, f"r{key}", old, new) != 1:
            return False
        self._acknowledge()
        return True

    def add(self, element):
        self._call("SADD", "set", element)
        self._acknowledge()

    def read_set(self):
        return {int(e) for e in self._call("SMEMBERS", "set")}

    def close(self):
        self._drop()
        if self.sentinel:
            self.sentinel.close()
