"""deploy/redis/redis.conf on Debian's redis-server: a bounded cache that drops the least recently used answers and
persists nothing, as compose runs it (``--maxmemory`` from REDIS_MAXMEMORY on the command line)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.deploy.stack import RedisServer


def test_the_config_bounds_memory_evicts_lru_and_persists_nothing(tmp_path: Path) -> None:
    server = RedisServer.start(tmp_path)
    try:
        client = server.client()
        config = {**client.config_get("maxmemory*"), **client.config_get("save"), **client.config_get("appendonly")}
    finally:
        server.stop()
    assert config["maxmemory"] == str(256 * 2**20)
    assert config["maxmemory-policy"] == "allkeys-lru"
    assert config["save"] == "" and config["appendonly"] == "no"


def test_past_its_memory_it_drops_the_least_recently_used_and_never_refuses_a_write(tmp_path: Path) -> None:
    server = RedisServer.start(tmp_path, "--maxmemory", "8mb")  # as compose passes REDIS_MAXMEMORY
    try:
        client = server.client()
        value = b"x" * 16_000
        for i in range(300):  # 4.8 MB of answers (and Redis's own ~1 MB)
            client.set(f"old:{i}", value)
        time.sleep(1.1)  # Redis's LRU clock ticks once a second
        for i in range(0, 300, 2):  # half of them asked for again
            assert client.get(f"old:{i}") == value
        for i in range(200):  # 3.2 MB more: over 8 MB, so some must go
            client.set(f"new:{i}", value)  # would raise OOM under noeviction
        info = client.info("memory") | client.info("stats")
        asked = sum(client.exists(f"old:{i}") for i in range(0, 300, 2))
        not_asked = sum(client.exists(f"old:{i}") for i in range(1, 300, 2))
    finally:
        server.stop()
    assert info["evicted_keys"] > 20 and info["used_memory"] <= 8 * 2**20 * 1.05
    print(f"kept: {asked}/150 asked for again, {not_asked}/150 not; {info['evicted_keys']} evicted")
    # The idle ones went: nearly all of the evicted (a random policy would take from both halves alike).
    assert asked >= 150 - info["evicted_keys"] // 5 and not_asked <= 150 - info["evicted_keys"] * 3 // 4
    assert not list(tmp_path.glob("*.rdb")) and not list(tmp_path.glob("appendonly*"))
