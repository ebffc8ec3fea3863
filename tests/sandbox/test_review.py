"""The findings of the engine-side isolation review (docs/SECURITY-REVIEW.md, "Isolation review, engine side"), one
test each: what an attacker tried against the interpreter and the facade, and what the run answers now."""

from __future__ import annotations

import gc

import engine
from engine.run_state import RunState, serial_of, use_state

T = "import torch\nimport torch.nn as nn\n"


def _run(code: str) -> engine.RunResult:
    return engine.run(code, seed=1)


def test_a_program_cannot_forge_a_limit_error_with_a_class_of_that_name() -> None:
    for name in ("LimitExceeded", "NotSupported", "SandboxError"):
        forged = "the program ran more than 1 steps (step limit)"
        result = _run(f"class {name}(Exception):\n    pass\nraise {name}('{forged}')")
        assert result.error is not None and result.error["type"] == "NotSupported", result.error
        assert "own error" in result.error["message"]


def test_exception_subclasses_work_and_their_unbound_methods_stay_on_their_instances() -> None:
    ok = _run(
        "class Stop(ValueError):\n    def __init__(self, m):\n        super().__init__(m)\n"
        "try:\n    raise Stop('done')\nexcept ValueError as e:\n    print(repr(e), e.args)"
    )
    assert ok.error is None and ok.stdout == "Stop('done') ('done',)\n"
    bad = _run(T + "class E(Exception):\n    pass\nsuper(E, E).with_traceback(torch.float32, None)")
    assert bad.error is not None and bad.error["type"] == "TypeError"
    assert "requires a 'E' object" in bad.error["message"]


def test_the_class_method_form_of_super_runs_on_instances_only() -> None:
    code = T + "class A(nn.Module):\n    pass\nclass B(A):\n    pass\nsuper(B, B).__init__(A())"
    result = _run(code)
    assert result.error is not None and result.error["type"] == "TypeError"
    assert _run(T + "class A(nn.Module):\n    pass\na = A()\nsuper(A, A).__init__(a)\nprint(a)").stdout == "A()\n"


def test_super_prints_without_an_address() -> None:
    result = _run("class A:\n    def f(self):\n        return super()\nprint(A().f())")
    assert result.stdout == "<super: <class 'A'>, <A object>>\n" and result.reproducible


def test_user_instances_print_as_a_scripts_with_the_runs_address() -> None:
    result = _run("class P:\n    pass\nprint(P())")
    assert result.stdout == "<__main__.P object at 0x7f3a5c000010>\n" and result.reproducible


def test_text_that_only_looks_like_an_address_is_left_alone() -> None:
    code = "s = ' at 0x7f3a5c000010>'\nprint(s, repr(s), '%s' % s, '{}'.format(s), f'{s}')"
    result = _run(code)
    assert result.stdout == " at 0x7f3a5c000010> ' at 0x7f3a5c000010>'" + "  at 0x7f3a5c000010>" * 3 + "\n"
    assert result.reproducible


def test_a_nan_in_a_set_orders_it_by_address_and_marks_the_run() -> None:
    assert not _run("print({float('nan'), 1.0, 2.5})").reproducible
    assert _run("print({1.0, 2.5, (1, 2.0)})").reproducible


def test_sets_made_by_operators_on_dict_views_are_checked_too() -> None:
    code = "class P:\n    pass\nd = {P(): 1, P(): 2}\nprint(len(d.keys() - set()))"
    assert _run(code).reproducible  # the run's own numbering
    code = "def f():\n    pass\nd = {f: 1, print: 2}\nprint(len(d.keys() - set()))"
    assert not _run(code).reproducible  # builtin functions hash by their address


def test_a_deep_tuple_in_a_set_is_checked_without_recursion() -> None:
    result = _run("t = ()\nfor i in range(3000):\n    t = (t,)\nprint(len({t, 1}))")
    assert result.error is None and result.stdout == "2\n" and result.reproducible


def test_the_runs_numbering_does_not_keep_what_it_numbered_alive() -> None:
    from engine.facade import make_modules

    run_state = RunState()
    with use_state(run_state):
        params = make_modules()["torch.nn"].Linear(1, 1).parameters()
        serial_of(params)
        assert run_state.identities is not None and len(run_state.identities) == 1
        del params
        gc.collect()
        assert len(run_state.identities) == 0


def test_a_user_class_cannot_pass_for_an_engine_class() -> None:
    result = _run("class A:\n    x = 1\nprint(A())")
    assert result.stdout.startswith("<__main__.A object at 0x7f3a5c")
