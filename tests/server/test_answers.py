"""Answers kept for code sent again (server/answers.py): only reproducible runs are kept, a kept answer is the same
bytes the run gave, streamed or not, and the memory they take stays within the limit."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

import engine
from engine.sandbox import Limits
from server.answers import KEEP, LIMIT, NONDETERMINISTIC, TOO_BIG, AnswerCache, Kept
from server.jsonio import done_answer, dumps, run_answer
from tests.conftest import running_server
from tests.server.test_api import _read_stream

ACCUMULATION = (
    "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x ** 2).backward()\nprint(x.grad)\n"
    "(x ** 3).backward()\nprint(x.grad)\n"
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server({"GRADTRACE_WORKERS": "2"}) as url:
        yield url


def _health(client: httpx.Client) -> dict[str, int]:
    body: dict[str, int] = client.get("/healthz").json()
    return body


# -- the engine says which runs are reproducible ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "reproducible"),
    [
        (ACCUMULATION, True),
        ("print(1 / 0)", True),  # an error of the program is as reproducible as its output
        ("import torch\ntorch.manual_seed(3)\nprint(torch.rand(2))", True),
        ("import torch\ng = torch.Generator()\nprint(torch.rand(2, generator=g))", True),  # PyTorch's fixed seed
        ("import torch\nprint(torch.rand(2))", False),  # the run's own seed, drawn at random
        ("import torch\nprint(torch.initial_seed())", False),
        ("import torch\nlayer = torch.nn.Linear(2, 2)", False),  # its init draws random numbers
        ("import torch\ntorch.seed()\ntorch.manual_seed(1)", False),
        ("import torch\ng = torch.Generator()\ng.seed()", False),
        (
            "import torch\nds = torch.utils.data.TensorDataset(torch.ones(4))\n"
            "loader = torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True)\nprint(len(list(loader)))",
            False,
        ),
        ("while True:\n    pass", False),  # a limit: a faster machine could get further
        ("def f():\n    f()\nf()", False),
    ],
)
def test_a_run_is_reproducible_unless_chance_or_a_limit_decided(code: str, reproducible: bool) -> None:
    assert engine.run(code, limits=Limits(max_steps=20_000)).reproducible is reproducible


def test_a_run_given_its_seed_is_reproducible() -> None:
    assert engine.run("import torch\nprint(torch.rand(2))", seed=5).reproducible


# -- the cache ----------------------------------------------------------------------------------------------------
def test_the_least_recently_used_answer_goes_first_and_big_ones_are_not_kept() -> None:
    answers = AnswerCache(max_bytes=16 * 100)
    kept = Kept(body=b"x" * 49, stream=b"y" * 50)  # 100 bytes with its code
    for name in "abc":
        answers.put((name, None), kept)
    assert answers.get(("a", None)) is kept  # a is now the most recent
    for name in "defghijklmnopq":  # the 17th answer pushes out the least recently used: b
        answers.put((name, None), kept)
    assert len(answers) == 16 and ("b", None) not in answers and ("a", None) in answers and ("c", None) in answers
    answers.put(("z", None), Kept(body=b"x" * 50, stream=b"y" * 50))  # 101 bytes: over a sixteenth of the memory
    assert ("z", None) not in answers and len(answers) == 16
    assert (answers.hits, answers.misses) == (1, 0)
    assert answers.counts == {KEEP: 17, NONDETERMINISTIC: 0, LIMIT: 0, TOO_BIG: 1}


def test_the_same_code_with_another_seed_is_another_answer() -> None:
    answers = AnswerCache(max_bytes=2**20)
    answers.put(("print(1)", 5), Kept(body=b"five", stream=b""))
    assert answers.get(("print(1)", 6)) is None and answers.get(("print(1)", None)) is None
    assert answers.get(("print(1)", 5)) == Kept(body=b"five", stream=b"")


def test_a_streamed_run_makes_the_same_answer_as_the_batch_run() -> None:
    result = engine.run(ACCUMULATION)
    body = run_answer(result)
    events = result.events
    frames = [dumps(events[:3]).encode(), b"[]", dumps(events[3:]).encode()]
    streamed = Kept.of_stream(frames, done_answer(result))
    assert streamed.body == body
    assert (
        streamed.stream
        == b"".join(b"event: trace\ndata: " + frame + b"\n\n" for frame in frames)
        + b"event: done\ndata: "
        + done_answer(result)
        + b"\n\n"
    )
    batch = Kept.of_body(body)
    assert batch.body == body
    assert batch.stream == (
        b"event: trace\ndata: " + dumps(events).encode() + b"\n\nevent: done\ndata: " + done_answer(result) + b"\n\n"
    )


def test_an_answer_is_cut_where_its_events_start_whatever_its_output_says() -> None:
    result = engine.run('print(\'","events":[1]}\')\nprint(1 / 0)')
    kept = Kept.of_body(run_answer(result))
    trace = b"event: trace\ndata: " + dumps(result.events).encode() + b"\n\n"
    assert kept.stream == trace + b"event: done\ndata: " + done_answer(result) + b"\n\n"
    assert Kept.of_body(run_answer(engine.run("x = 1"))).stream.startswith(b"event: done")  # no events: no trace


# -- through the server -------------------------------------------------------------------------------------------
def test_code_sent_again_gets_the_same_answer_without_a_run(server: str) -> None:
    code = ACCUMULATION + "# test_code_sent_again\n"
    with httpx.Client(base_url=server, timeout=30) as client:
        before = _health(client)
        first = client.post("/api/run", json={"code": code}).content
        second = client.post("/api/run", json={"code": code}).content
        after = _health(client)
    assert json.loads(first)["stdout"] == "tensor(4.)\ntensor(16.)\n"
    assert second == first
    assert after["kept_answers"] == before["kept_answers"] + 1
    assert after["answers_given_again"] == before["answers_given_again"] + 1


def test_chance_is_never_given_again(server: str) -> None:
    code = "import torch\nprint(torch.rand(3))\n# test_chance\n"
    with httpx.Client(base_url=server, timeout=30) as client:
        before = _health(client)
        answers = [client.post("/api/run", json={"code": code}).json() for _ in range(3)]
        after = _health(client)
    assert len({answer["seed"] for answer in answers}) == 3
    assert len({answer["stdout"] for answer in answers}) == 3
    assert after["kept_answers"] == before["kept_answers"]


def test_a_streamed_run_is_kept_and_streams_again_the_same(server: str) -> None:
    code = ACCUMULATION + "# test_a_streamed_run\n"
    with httpx.Client(base_url=server, timeout=30) as client:
        first = _read_stream(client, code)[1:]
        again = _read_stream(client, code)[1:]
        batch = client.post("/api/run", json={"code": code}).json()
        health = _health(client)
    events = [event for kind, data, _ in first if kind == "trace" for event in json.loads(data)]
    assert [event for kind, data, _ in again if kind == "trace" for event in json.loads(data)] == events
    assert (
        json.loads(again[-1][1])
        == json.loads(first[-1][1])
        == {"stdout": "tensor(4.)\ntensor(16.)\n", "error": None, "seed": batch["seed"]}
    )
    assert batch["events"] == events and health["answers_given_again"] >= 2


def test_without_the_cache_every_request_runs() -> None:
    code = ACCUMULATION
    with (
        running_server({"GRADTRACE_ANSWER_CACHE_MB": "0", "GRADTRACE_WORKERS": "1"}) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        seeds = {client.post("/api/run", json={"code": code}).json()["seed"] for _ in range(3)}
        health = _health(client)
    assert len(seeds) == 3 and health["kept_answers"] == health["answers_given_again"] == 0


def test_a_full_server_still_gives_kept_answers() -> None:
    env = {
        "GRADTRACE_MAX_PENDING_RUNS": "1",
        "GRADTRACE_MAX_STEPS": "1000000000",
        "GRADTRACE_MAX_SECONDS": "3",
        "GRADTRACE_WORKERS": "2",
    }
    with running_server(env) as url, httpx.Client(base_url=url, timeout=30) as client:
        kept = client.post("/api/run", json={"code": ACCUMULATION}).content
        with client.stream("POST", "/api/run/stream", json={"code": "print('started')\nwhile True:\n    pass"}) as busy:
            chunks = busy.iter_text()
            seen = ""
            while "started" not in seen:
                seen += next(chunks)
            assert client.post("/api/run", json={"code": "print(1)"}).status_code == 429  # full: new code waits
            assert client.post("/api/run", json={"code": ACCUMULATION}).content == kept  # a kept answer needs no worker
            streamed = _read_stream(client, ACCUMULATION)[1:]
            assert [kind for kind, _, _ in streamed] == ["trace", "done"]
            assert json.loads(streamed[0][1]) == json.loads(kept)["events"]
            "".join(chunks)
