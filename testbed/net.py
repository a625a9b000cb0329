"""Several hosts on one machine: a network namespace per node, one bridge between them.

Each node gets its own network namespace (`ip netns add`), a veth pair whose outer
end is a port of a bridge in the caller's namespace, and an address on a private
/24. The caller's namespace gets no address: nothing of the test bed is reachable
from, or reaches, the machine's own network. A partition is a set of nftables rules
in a table of the bridge family that drops frames between the bridge ports of
nodes on different sides; healing flushes them. Since the rules match ports, not
addresses, ARP is cut too, as on a real switch that stops forwarding.

Client threads run inside a node's namespace (`enter`): Linux's setns(2) changes the
namespace of the calling thread only, so one Python process hosts clients on every
node, all stamping events with one clock. A client beside a node reaches that node
over the namespace's loopback path, which no partition cuts: a client on the
minority side keeps talking to the nodes on its side, as an application server
beside a database node does.

Everything made here is named after the run id (`tb` and six hex digits), so a run
can list and remove exactly what it made and check that nothing of it is left. A run
records itself as the id's owner in /run/ariadne-testbed/; the next run removes what
a run whose controller died (SIGKILL, out of memory) left behind.
"""

import contextlib
import ctypes
import os
import signal
import subprocess

CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)
# The namespace the test bed was started in, to come back to (inside()).
_home = os.open("/proc/self/ns/net", os.O_RDONLY)


OWNERS = "/run/ariadne-testbed"  # one file per live run: its id, holding the owner's pid


class SetupError(RuntimeError):
    """The machine cannot host the test bed (no root, no namespaces, no nftables)."""


def run(*args, input_text=None, check=True):
    """Runs a command; raises with its stderr when it fails and check is set."""
    done = subprocess.run(list(args), input=input_text, text=True, capture_output=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done


def _setns(descriptor, what):
    if _libc.setns(descriptor, CLONE_NEWNET) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"setns into {what}: {os.strerror(error)}")


def check_host():
    """Raises SetupError unless this process can make namespaces and partitions."""
    if os.geteuid() != 0:
        raise SetupError("the test bed needs root: it makes network namespaces")
    for tool in ("ip", "nft"):
        if run("sh", "-c", f"command -v {tool}", check=False).returncode != 0:
            raise SetupError(f"`{tool}` is missing (testbed/install-deps.sh installs it)")


def go_home():
    """Brings the calling thread back to the test bed's own namespace (a no-op there)."""
    _setns(_home, "the test bed's own namespace")


def claim(run_id):
    """Records this process as the owner of run_id; False when the id is taken."""
    os.makedirs(OWNERS, exist_ok=True)
    try:
        descriptor = os.open(os.path.join(OWNERS, run_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "w") as owner:
        owner.write(f"{os.getpid()}\n")
    return True


def release(run_id):
    try:
        os.remove(os.path.join(OWNERS, run_id))
    except FileNotFoundError:
        pass


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def remove_everything_of(run_id):
    """Kills every process in the run's namespaces and removes the namespaces, the links
    and the nftables table named after it: what a killed controller could not."""
    for line in run("ip", "netns", "list", check=False).stdout.splitlines():
        namespace = line.split()[0] if line.split() else ""
        if namespace.startswith(run_id + "-"):
            for pid in run("ip", "netns", "pids", namespace, check=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            run("ip", "netns", "delete", namespace, check=False)
    for line in run("ip", "-o", "link", "show", check=False).stdout.splitlines():
        fields = line.split(": ")
        if len(fields) > 1 and fields[1].split("@")[0].startswith(run_id):
            run("ip", "link", "delete", fields[1].split("@")[0], check=False)
    run("nft", "delete", "table", "bridge", run_id, check=False)


def sweep_orphans():
    """Removes what runs whose controller died (SIGKILL, out of memory) left behind; returns
    their ids. A run whose owner is still alive is left alone."""
    swept = []
    if not os.path.isdir(OWNERS):
        return swept
    for run_id in os.listdir(OWNERS):
        try:
            with open(os.path.join(OWNERS, run_id), encoding="utf-8") as owner:
                pid = int(owner.read().strip() or 0)
        except (OSError, ValueError):
            pid = 0
        if pid and _alive(pid):
            continue
        remove_everything_of(run_id)
        release(run_id)
        swept.append(run_id)
    return swept


def enter(namespace):
    """Moves the calling thread into the named network namespace (setns(2)) for good.
    A thread that has entered one must not start processes: they would start there."""
    descriptor = os.open(f"/run/netns/{namespace}", os.O_RDONLY)
    try:
        _setns(descriptor, namespace)
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def inside(namespace):
    """Runs a block in the named namespace and comes back: a socket opened inside stays
    there, so the controller can reach every node over its loopback path."""
    try:
        enter(namespace)
        yield
    finally:
        go_home()


class Service:
    """One server process inside a node's namespace, stopped by its pid."""

    def __init__(self, network, node, argv, log_path):
        self.network = network
        self.node = node
        self.argv = list(argv)
        self.log_path = log_path
        self.process = None
        self.paused = False
        self.pids = []  # every pid this service had, for the leftover check

    def start(self):
        if self.running():
            raise RuntimeError(f"{self.argv[0]} on {self.node} is already running")
        with open(self.log_path, "ab") as log:
            # `ip netns exec` execs the server, so the pid is the server's own.
            self.process = subprocess.Popen(
                ["ip", "netns", "exec", self.network.namespace(self.node)] + self.argv,
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        self.pids.append(self.process.pid)
        self.paused = False

    def running(self):
        return self.process is not None and self.process.poll() is None

    def pause(self):
        if self.running():
            os.kill(self.process.pid, signal.SIGSTOP)
            self.paused = True

    def resume(self):
        if self.running() and self.paused:
            os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False

    def kill(self):
        if self.running():
            self.process.kill()
            self.process.wait()
        self.paused = False

    def stop(self):
        """SIGTERM, then SIGKILL after 5 s; a paused server is resumed first. Any earlier
        pid of this service still alive is killed too."""
        if self.running():
            self.resume()
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pid in self.alive_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def alive_pids(self):
        """The pids of this service still running (a zombie of ours is reaped first)."""
        if self.process is not None:
            self.process.poll()
        return [pid for pid in self.pids if _alive(pid)]


class Network:
    """The namespaces, the bridge and the partition table of one run."""

    def __init__(self, run_id, node_names, subnet):
        self.run_id = run_id
        self.nodes = list(node_names)
        self.bridge = f"{run_id}br"
        self.table = run_id
        self.subnet = subnet  # the first three octets, e.g. "10.77.3"
        self.made = False

    def namespace(self, node):
        return f"{self.run_id}-{node}"

    def port(self, node):
        return f"{self.run_id}h{self.nodes.index(node) + 1}"

    def ip(self, node):
        return f"{self.subnet}.{self.nodes.index(node) + 1}"

    def up(self):
        """Makes the namespaces, the veth pairs, the bridge and the empty partition table."""
        check_host()
        try:
            run("ip", "link", "add", self.bridge, "type", "bridge")
        except RuntimeError as error:
            raise SetupError(f"cannot make a bridge here: {error}") from error
        self.made = True  # only now: a bridge of this name that was there is not ours
        run("ip", "link", "set", self.bridge, "up")
        for node in self.nodes:
            namespace = self.namespace(node)
            try:
                run("ip", "netns", "add", namespace)
            except RuntimeError as error:
                raise SetupError(f"cannot make network namespaces here: {error}") from error
            run("ip", "link", "add", self.port(node), "type", "veth", "peer", "name", "eth0",
                "netns", namespace)
            run("ip", "link", "set", self.port(node), "master", self.bridge, "up")
            run("ip", "-n", namespace, "addr", "add", f"{self.ip(node)}/24", "dev", "eth0")
            run("ip", "-n", namespace, "link", "set", "eth0", "up")
            run("ip", "-n", namespace, "link", "set", "lo", "up")
        try:
            run("nft", "-f", "-", input_text=(
                f"table bridge {self.table} {{\n"
                "  chain forward { type filter hook forward priority 0; policy accept; }\n"
                "}\n"))
        except RuntimeError as error:
            raise SetupError(f"cannot make an nftables bridge table here: {error}") from error

    def partition(self, sides):
        """Cuts every pair of nodes on different sides (a list of lists of nodes); nodes on
        no side are cut from everyone. Replaces the previous partition in one nft
        transaction."""
        side_of = {}
        for index, side in enumerate(sides):
            for node in side:
                side_of[node] = index
        lines = [f"flush chain bridge {self.table} forward"]
        for a in self.nodes:
            for b in self.nodes:
                if a != b and (a not in side_of or b not in side_of or side_of[a] != side_of[b]):
                    lines.append(f"add rule bridge {self.table} forward "
                                 f"iifname {self.port(a)} oifname {self.port(b)} drop")
        run("nft", "-f", "-", input_text="\n".join(lines) + "\n")

    def heal(self):
        run("nft", "flush", "chain", "bridge", self.table, "forward")

    def down(self):
        """Removes the table, the namespaces (and with them the veth pairs) and the bridge.
        Processes inside must be stopped first."""
        if not self.made:
            return
        run("nft", "delete", "table", "bridge", self.table, check=False)
        for node in self.nodes:
            run("ip", "netns", "delete", self.namespace(node), check=False)
            run("ip", "link", "delete", self.port(node), check=False)
        run("ip", "link", "delete", self.bridge, check=False)

    def leftovers(self):
        """What of this run is still on the machine: namespaces, links, the nft table."""
        left = []
        namespaces = run("ip", "netns", "list", check=False).stdout.split("\n")
        left += [f"namespace {line.split()[0]}" for line in namespaces
                 if line.startswith(self.run_id + "-")]
        links = run("ip", "-o", "link", "show", check=False).stdout.split("\n")
        for line in links:
            fields = line.split(": ")
            if len(fields) > 1 and fields[1].split("@")[0].startswith(self.run_id):
                left.append(f"link {fields[1].split('@')[0]}")
        tables = run("nft", "list", "tables", check=False).stdout
        if f"table bridge {self.table}" in tables:
            left.append(f"nftables table bridge {self.table}")
        return left
