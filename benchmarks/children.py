"""One benchmarked child process: wall time, CPU time and peak memory.

Wall time is the child's; CPU time (user + system of the child and of every child it
waited for) and the largest single process's peak resident memory come from os.wait4.
With `tree=True` the whole process tree is also sampled while it runs (every process
of the child's session: polytype's forked renderers and the ruff process it starts):
the peak of their summed proportional set size (PSS, so that pages the forked workers
share with their parent count once), the memory the run takes from the machine; never
less than the largest single process's peak, which sampling could miss.
"""

from __future__ import annotations

import compileall
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

TREE_INTERVAL = 0.05  # seconds between two samples of the process tree


def compile_polytype() -> None:
    """Compile polytype's modules to bytecode before timing it, as `pip install` does for
    the peers' packages. An editable install run from a shell with
    PYTHONDONTWRITEBYTECODE set would otherwise compile every changed module again in
    each timed run (about 0.25 s of CPU when all are stale)."""
    import polytype

    compileall.compile_dir(Path(polytype.__file__).parent, quiet=1)


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float
    peak_mb: float  # the largest single process's peak RSS
    timed_out: bool = False
    tree_peak_mb: float = 0.0  # the process tree's peak summed PSS (with tree=True)
    returncode: int = 0


def run_child(
    command: Sequence[str],
    cwd: Path,
    timeout: float,
    *,
    check: bool = True,
    tree: bool = False,
) -> Sample:
    """Run `command`; wall time, CPU time and peak memory of it and its children.

    The disk is flushed first, so no run pays for writing back the previous run's files.
    A failing command raises (unless not `check`: then its exit code is in the sample).
    """
    with tempfile.TemporaryFile() as stderr:
        return _run(command, cwd, timeout, check, tree, stderr)


def _run(
    command: Sequence[str], cwd: Path, timeout: float, check: bool, tree: bool, stderr: IO[bytes]
) -> Sample:
    # stderr goes to a file: a pipe nobody reads until the end stops a child that warns a lot
    os.sync()
    time.sleep(0.5)
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        start_new_session=True,
    )
    deadline = started + timeout
    tree_peak = 0
    next_sample = started
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        now = time.perf_counter()
        if now > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            _, status, usage = os.wait4(process.pid, 0)
            cpu = usage.ru_utime + usage.ru_stime
            return Sample(timeout, cpu, usage.ru_maxrss / 1024, True, tree_peak / 1024, -9)
        if tree and now >= next_sample:
            tree_peak = max(tree_peak, session_pss_kb(process.pid))
            next_sample = now + TREE_INTERVAL
        time.sleep(0.005)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0 and check:
        stderr.seek(0)
        errors = stderr.read().decode(errors="replace")
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{errors[-3000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / 1024
    return Sample(wall, cpu, peak, False, max(tree_peak / 1024, peak), process.returncode)


def session_pss_kb(session: int) -> int:
    """The summed PSS (kB) of every live process of `session`."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            if int(fields[3]) != session:
                continue
            with open(f"/proc/{entry.name}/smaps_rollup", encoding="ascii") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, IndexError, ValueError):
            continue  # the process ended meanwhile
    return total
