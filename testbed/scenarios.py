"""The named scenarios: a system, its settings, and the faults the nemesis draws from."""

from etcd_cluster import EtcdCluster
from redis_cluster import RedisCluster

SCENARIOS = {
    "redis-nowait": {
        "about": "Redis + Sentinel, plain writes; the primary is isolated about half the "
                 "time (Jepsen's Redis redux: acknowledged writes lost on failover)",
        "cluster": RedisCluster, "settings": {},
        "faults": ["partition-primary"],
    },
    "redis-wait": {
        "about": "Redis + Sentinel, every write followed by WAIT 2 (three copies); the "
                 "primary is isolated or paused (Knossos on WAIT: still not linearizable)",
        "cluster": RedisCluster, "settings": {"wait": True},
        "faults": ["partition-primary", "pause-primary"],
    },
    "redis-wait-aof": {
        "about": "Redis + Sentinel, WAIT 2, AOF with fsync always; the primary is killed "
                 "and restarted (without AOF, `--faults kill-primary` on redis-wait loses "
                 "most writes)",
        "cluster": RedisCluster, "settings": {"wait": True, "aof": True},
        "faults": ["kill-primary"],
    },
    "etcd-linearizable": {
        "about": "etcd, 3 members, linearizable reads, cas as a transaction; leader "
                 "isolated, halves, leader paused, leader or any member killed",
        "cluster": EtcdCluster, "settings": {},
        "faults": ["partition-primary", "partition-halves", "pause-primary", "kill-primary",
                   "kill-random"],
    },
    "etcd-serializable": {
        "about": "etcd as above, reads serializable (answered by the member asked, "
                 "possibly stale)",
        "cluster": EtcdCluster, "settings": {"serializable": True},
        "faults": ["partition-primary", "partition-halves", "pause-primary", "kill-primary",
                   "kill-random"],
    },
}
