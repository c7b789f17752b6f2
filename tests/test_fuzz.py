"""The mutation fuzzer (`tests/fuzz.py`) in the test suite: every input that ever made it
fail is replayed, then a bounded run of new cases.

The bounded run is a fixed number of cases (`POLYTYPE_FUZZ_CASES`, 50; 0 skips it) from
a fixed seed (`POLYTYPE_FUZZ_SEED`, or `random`), so that CI runs the same cases on any
machine at any speed (a time budget ran fewer cases on a loaded machine, and met seed 68
only on a fast one); longer runs with fresh seeds are `nox -s fuzz -- --minutes 60`. It compiles the Elixir of every
fifth case that generates (elixirc takes seconds); replays compile all of theirs.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest

from . import fuzz

REPLAYS = fuzz.regression_cases()


@pytest.fixture(scope="module")
def work() -> Path:
    with tempfile.TemporaryDirectory(prefix="polytype-fuzz-test-") as temporary:
        yield Path(temporary)


@pytest.fixture(scope="module")
def base(work: Path) -> Path:
    return fuzz.base_project(work)


def test_regression_cases_are_kept() -> None:
    assert len(REPLAYS) >= 9
    for case in REPLAYS:
        assert case.content, case.source


@pytest.mark.parametrize("case", REPLAYS, ids=lambda case: Path(case.source).name)
def test_regression_case_passes(case: fuzz.Case, base: Path, work: Path) -> None:
    outcome = fuzz.run_case(case, base, work, compile_elixir=True, run_check=True)
    assert not outcome.failures, f"{outcome.failures}\n{outcome.stderr}"


def test_bounded_fuzz_run_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    cases = int(os.environ.get("POLYTYPE_FUZZ_CASES", "50"))
    if cases <= 0:
        pytest.skip("POLYTYPE_FUZZ_CASES=0")
    configured = os.environ.get("POLYTYPE_FUZZ_SEED", "17")
    seed = random.SystemRandom().randrange(10**9) if configured == "random" else int(configured)
    failing = fuzz.fuzz(
        minutes=None, cases=cases, seed=seed, elixir_every=5, check_every=4, save=False
    )
    log = capsys.readouterr().err
    assert (
        not failing
    ), f"replay with: python -m tests.fuzz --seed {failing[0].case.seed} --cases 1\n{log[-5000:]}"
