"""Writes: concurrent runs do not interleave, interrupted runs leave whole files, output is stable.

- Two `polytype generate` processes in one tree: the lock in `polytype.writing.writer`
  serialises them (one writes, the other then finds nothing to do), and a run
  waits while another holds the lock.
- A run killed with SIGKILL in the middle of writing, or failing in the middle
  of applying its plan, leaves every output either as it was or as it should
  be, never partial; the next run completes the job.
- Output is byte-identical across runs, `PYTHONHASHSEED` values and the order in
  which schema files are listed or were created.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from polytype import ir
from polytype.cli import main
from polytype.diagnostics import Diagnostic, InputError, Position
from polytype.project import rendering
from polytype.project.config import Project
from polytype.writing import spool, writer
from ruamel.yaml import YAML

from .conftest import REPO

MODULES = ("bedrock_swarm", "nano_agent")


def tree(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and "_build" not in path.parts
    }


def digest(files: dict[str, bytes]) -> dict[str, str]:
    return {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}


def make_project(destination: Path, modules: tuple[str, ...] = MODULES) -> Path:
    (destination / "schema").mkdir(parents=True)
    for module in modules:
        shutil.copy(REPO / "schema" / f"{module}.yaml", destination / "schema")
        shutil.copytree(
            REPO / "tests" / "fixtures" / module, destination / "tests" / "fixtures" / module
        )
    (destination / "pyproject.toml").write_text(
        '[tool.polytype]\nstrict = true\nschema-dir = "schema"\n', "utf-8"
    )
    return destination


def change_schemas(project: Path) -> None:
    """An edit that changes most outputs of every module: every description gains a word."""
    yaml = YAML(typ="rt", pure=True)
    for path in (project / "schema").glob("*.yaml"):
        document = yaml.load(path.read_text(encoding="utf-8"))
        stack = [document]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("description"), str):
                    node["description"] = "Edited. " + node["description"]
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        with path.open("w", encoding="utf-8") as handle:
            yaml.dump(document, handle)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated project: the "old" state."""
    project = make_project(tmp_path_factory.mktemp("writes") / "old")
    assert main(["--project", str(project), "generate"]) == 0
    return project


@pytest.fixture
def generations(base: Path, tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """The old project and the tree a run after `change_schemas` writes (computed now, so
    that both come from the generator as it is at this moment)."""
    assert main(["--project", str(base), "generate"]) == 0
    new = tmp_path / "expected-new"
    shutil.copytree(base, new)
    change_schemas(new)
    assert main(["--project", str(new), "generate"]) == 0
    return base, tree(new / "generated")


def copy_of(base: Path, destination: Path) -> Path:
    shutil.copytree(base, destination)
    return destination


# A wrapper around the CLI that reports its progress on stdout, so a test can act at
# the right moment, never after a guessed delay: before taking the lock, each time it finds
# the lock held by someone else (filelock's own log line), after taking it, and after writing
# each temporary file but before renaming it into place. In step mode it then waits for a
# line on stdin, so a test can kill it there; closing stdin lets it run to the end.
WRAPPER = textwrap.dedent("""
    import contextlib, logging, os, sys
    import polytype.cli as cli
    import polytype.writing.writer as writer

    real_locked = writer.locked
    step = os.environ.get("POLYTYPE_TEST_STEP") == "1"

    class Busy(logging.Handler):
        def emit(self, record):
            if "not acquired" in record.getMessage():
                print("lock-busy", flush=True)

    logging.getLogger("filelock").addHandler(Busy())
    logging.getLogger("filelock").setLevel(logging.DEBUG)
    logging.getLogger("filelock").propagate = False

    @contextlib.contextmanager
    def announced(directory):
        print("waiting-for-lock", flush=True)
        with real_locked(directory):
            print("locked", flush=True)
            yield

    real_replace = os.replace
    # the project's own files only: os.replace is patched for the whole process, and the
    # template cache in the user's cache directory also renames a `.tmp` into place
    project = os.path.abspath(sys.argv[sys.argv.index("--project") + 1]) + os.sep

    def stepped_replace(source, target):
        if str(source).endswith(".tmp") and os.path.abspath(target).startswith(project):
            print("temp-written " + str(target), flush=True)
            if step:
                sys.stdin.readline()
        real_replace(source, target)

    cli.locked = announced
    writer.os.replace = stepped_replace
    sys.exit(cli.main(sys.argv[1:]))
    """)


class Run:
    """A `polytype generate` subprocess whose stdout lines arrive on a queue.

    With `step`, it stops after each temporary file until `step()` (or `release()`, for
    every remaining file) lets it go on.
    """

    def __init__(self, project: Path, tmp: Path, step: bool = False) -> None:
        script = tmp / "wrapper.py"
        script.write_text(WRAPPER, encoding="utf-8")
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO / "generator"),
            "POLYTYPE_TEST_STEP": "1" if step else "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, str(script), "--project", str(project), "generate"],
            env=env,
            stdin=subprocess.PIPE if step else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.ended = False
        assert self.process.stdout is not None
        self.pump = threading.Thread(target=self._pump, args=(self.process.stdout,), daemon=True)
        self.pump.start()

    def _pump(self, stream: object) -> None:
        for line in iter(stream.readline, ""):  # type: ignore[attr-defined]
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output

    def wait_for(self, prefix: str, timeout: float = 120) -> str:
        """The next line that starts with `prefix` (`timeout` only guards against a hang)."""
        while not self.ended:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                break
            if line is None:
                self.ended = True
                break
            self.seen.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"never saw {prefix!r}; saw {self.seen}; stderr: {self.stderr()}")

    def step(self) -> None:
        """Let a stepped run rename the temporary file it stopped after."""
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()

    def release(self) -> None:
        """Let a stepped run go on to the end without stopping again."""
        if self.process.stdin is not None:
            self.process.stdin.close()

    def stderr(self) -> str:
        if self.process.poll() is None:
            return ""
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def finish(self, timeout: float = 300) -> tuple[int, list[str]]:
        code = self.process.wait(timeout=timeout)
        self.pump.join(timeout=timeout)  # the pump has read every line once stdout closes
        while not self.lines.empty():
            line = self.lines.get()
            if line is not None:
                self.seen.append(line)
        return code, self.seen


@pytest.fixture
def runs() -> Iterator[list[Run]]:
    started: list[Run] = []
    yield started
    for run in started:
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()


# --- concurrency ------------------------------------------------------------------------


def test_a_run_waits_while_another_holds_the_lock(
    generations: tuple[Path, dict[str, bytes]], tmp_path: Path, runs: list[Run]
) -> None:
    base, new = generations
    project = copy_of(base, tmp_path / "p")
    change_schemas(project)
    before = tree(project / "generated")
    with writer.locked(project / "generated"):
        run = Run(project, tmp_path)
        runs.append(run)
        run.wait_for("waiting-for-lock")
        run.wait_for("lock-busy")  # it tried the lock, found it held, and waits
        assert run.process.poll() is None  # still waiting
        assert "locked" not in run.seen
        assert tree(project / "generated") == before  # nothing written meanwhile
    code, lines = run.finish()
    assert code == 0, run.stderr()
    assert "locked" in lines
    assert tree(project / "generated") == new


def test_two_concurrent_runs_do_not_interleave(
    generations: tuple[Path, dict[str, bytes]], tmp_path: Path, runs: list[Run]
) -> None:
    base, new = generations
    project = copy_of(base, tmp_path / "p")
    change_schemas(project)
    first = Run(project, tmp_path, step=True)
    runs.append(first)
    first.wait_for("temp-written")  # holding the lock, halfway through its writes
    second = Run(project, tmp_path)
    runs.append(second)
    second.wait_for("lock-busy")  # the second run reached the lock while the first writes
    first.release()
    results = [first.finish(), second.finish()]
    assert [code for code, _ in results] == [0, 0], first.stderr() + second.stderr()
    assert tree(project / "generated") == new
    # Each run plans under the lock: one writes everything, the other then finds nothing to do,
    # and no temporary file of either is written while the other holds the lock.
    writers = [
        lines for _, lines in results if any(line.startswith("temp-written") for line in lines)
    ]
    assert len(writers) == 1
    idle = [lines for _, lines in results if lines is not writers[0]][0]
    assert any("0 new, 0 updated, 0 removed" in line for line in idle)
    for lines in (writers[0], idle):
        assert lines.index("locked") > lines.index("waiting-for-lock")
        assert all(
            line.startswith("temp-written") is False for line in lines[: lines.index("locked")]
        )


# --- interruption -----------------------------------------------------------------------


def assert_old_or_new(project: Path, old: dict[str, bytes], new: dict[str, bytes]) -> int:
    """Every output is byte-identical to its old or its new version; returns how many are new."""
    now = tree(project / "generated")
    updated = 0
    for path, data in now.items():
        if path in new and data == new[path]:
            updated += path not in old or old[path] != data
            continue
        if path in old and data == old[path]:
            continue
        name = path.rsplit("/", 1)[-1]
        assert name.startswith(".") and name.endswith(".tmp"), f"partial or foreign file: {path}"
    for path in old:
        assert path in now or path not in new, f"{path} vanished"
    return updated


def test_sigkill_mid_write_leaves_old_or_new_files(
    generations: tuple[Path, dict[str, bytes]], tmp_path: Path, runs: list[Run]
) -> None:
    base, new = generations
    project = copy_of(base, tmp_path / "p")
    old = tree(project / "generated")
    change_schemas(project)
    run = Run(project, tmp_path, step=True)
    runs.append(run)
    run.wait_for("temp-written")
    run.step()  # the first file goes into place
    run.wait_for("temp-written")  # the second file's temporary copy is complete, not yet renamed
    run.process.send_signal(signal.SIGKILL)
    assert run.process.wait(timeout=30) == -signal.SIGKILL
    updated = assert_old_or_new(project, old, new)
    assert 1 <= updated < len([p for p in new if new[p] != old.get(p)])
    # the next run finishes the job and clears the leftovers
    assert main(["--project", str(project), "generate"]) == 0
    assert tree(project / "generated") == new


def test_failure_mid_apply_leaves_old_or_new_files(
    generations: tuple[Path, dict[str, bytes]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The disk fills up after three files were put in place: the rest stay as they were."""
    base, new = generations
    project = copy_of(base, tmp_path / "p")
    old = tree(project / "generated")
    change_schemas(project)
    real = os.replace
    done: list[str] = []

    def failing(source: str, target: str) -> None:
        if str(source).endswith(".tmp") and len(done) == 3:
            raise OSError(28, "No space left on device")
        real(source, target)
        done.append(str(target))

    monkeypatch.setattr(writer.os, "replace", failing)
    assert main(["--project", str(project), "generate"]) == 4  # the environment, not a bug
    err = capsys.readouterr().err
    assert "No space left on device" in err and "internal error" not in err
    assert "cannot write " in err and "generated/" in err  # names the file
    monkeypatch.setattr(writer.os, "replace", real)
    assert assert_old_or_new(project, old, new) == 3
    assert not [p for p in (project / "generated").rglob("*.tmp")]  # temporaries cleaned up
    assert main(["--project", str(project), "generate"]) == 0
    assert tree(project / "generated") == new


def test_a_read_only_output_directory_is_an_environment_error(
    generations: tuple[Path, dict[str, bytes]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Exit 4 with the path and the cause, not `internal error ... polytype bug` (exit 3)."""
    base, _ = generations
    project = copy_of(base, tmp_path / "p")
    change_schemas(project)
    package = project / "generated" / "python" / "nano_agent"
    old = tree(project / "generated")
    real = tempfile.mkstemp

    def read_only(*args: object, dir: str, **kwargs: object) -> tuple[int, str]:
        if Path(dir) == package:  # what the OS says for a directory without write permission
            raise PermissionError(13, "Permission denied", os.path.join(dir, ".x.tmp"))
        return real(*args, dir=dir, **kwargs)  # type: ignore[call-overload,no-any-return]

    if os.geteuid() == 0:  # root writes to read-only directories
        monkeypatch.setattr(writer.tempfile, "mkstemp", read_only)
    package.chmod(0o555)
    try:
        assert main(["--project", str(project), "generate"]) == 4
    finally:
        package.chmod(0o755)
    err = capsys.readouterr().err
    assert "Permission denied" in err and "internal error" not in err
    assert "cannot write " in err and "generated/python/nano_agent/" in err
    assert tree(project / "generated") == old


def test_write_atomic_never_exposes_a_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")

    def broken_chmod(path: str, mode: int) -> None:  # the temporary is written, then fails
        raise OSError(5, "I/O error")

    source = tmp_path / "spooled" / "new.txt"
    source.parent.mkdir()
    source.write_text("new " * 10_000, encoding="utf-8")
    monkeypatch.setattr(writer.os, "chmod", broken_chmod)
    with pytest.raises(OSError):
        writer._write_atomic(target, source)
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "spooled"]  # no temporary


# --- determinism ------------------------------------------------------------------------


def test_output_is_identical_across_runs_seeds_and_schema_order(
    base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["--project", str(base), "generate"]) == 0
    expected = digest(tree(base / "generated"))

    # again, in place: nothing changes
    again = copy_of(base, tmp_path / "again")
    assert main(["--project", str(again), "generate"]) == 0
    assert digest(tree(again / "generated")) == expected

    # from scratch, schema files listed in reverse order
    listed = make_project(tmp_path / "reversed")
    real = Project.schema_files
    monkeypatch.setattr(Project, "schema_files", lambda self: list(reversed(real(self))))
    assert main(["--project", str(listed), "generate"]) == 0
    monkeypatch.setattr(Project, "schema_files", real)
    assert digest(tree(listed / "generated")) == expected

    # from scratch in other processes, with other hash seeds, files created in reverse order
    for seed in ("0", "1", "4242"):
        project = make_project(tmp_path / f"seed{seed}", tuple(reversed(MODULES)))
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO / "generator")}
        subprocess.run(
            [sys.executable, "-m", "polytype", "--project", str(project), "generate"],
            env=env,
            check=True,
            capture_output=True,
            timeout=600,
        )
        assert digest(tree(project / "generated")) == expected, f"PYTHONHASHSEED={seed}"


def strip_hashes(manifest: dict[str, object]) -> dict[str, object]:
    outputs = manifest.get("outputs")
    assert isinstance(outputs, list)
    return {
        **manifest,
        "outputs": [
            {key: value for key, value in entry.items() if not key.endswith("sha256")}
            for entry in outputs
        ],
    }


def test_renamed_schema_files_give_the_same_modules(tmp_path: Path) -> None:
    """Files renamed (so they sort the other way) but naming the same modules: same code."""
    first = make_project(tmp_path / "first")
    second = make_project(tmp_path / "second")
    for index, path in enumerate(sorted((second / "schema").glob("*.yaml"), reverse=True)):
        path.rename(path.with_name(f"{index}_{path.name}"))
    assert main(["--project", str(first), "generate"]) == 0
    assert main(["--project", str(second), "generate"]) == 0
    one, two = tree(first / "generated"), tree(second / "generated")
    assert sorted(one) == sorted(two)
    for path in one:
        # only the schema path quoted in headers and the manifest differs
        normalised = two[path]
        for module in MODULES:
            for index in range(len(MODULES)):
                normalised = normalised.replace(
                    f"schema/{index}_{module}.yaml".encode(), f"schema/{module}.yaml".encode()
                )
        if path == "manifest.json":  # inputs sorted by schema path; hashes of the files above
            assert strip_hashes(json.loads(normalised)) == strip_hashes(json.loads(one[path]))
        else:
            assert normalised == one[path], path


def test_parallel_and_serial_rendering_write_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Large schema sets render each (module, target) pair in a forked worker: same bytes."""
    if "fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2:
        pytest.fail("this test needs fork and two cores, as CI has")
    serial = make_project(tmp_path / "serial")
    parallel = make_project(tmp_path / "parallel")
    monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 10**9)
    assert main(["--project", str(serial), "generate"]) == 0
    real = rendering.render_target
    seen = tmp_path / "seen"
    seen.mkdir()

    def recorded(module: ir.Module, target: str, env: object) -> object:
        (seen / f"{os.getpid()}-{module.name}-{target}").touch()
        return real(module, target, env)  # type: ignore[arg-type]

    monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 1)
    monkeypatch.setattr(rendering, "render_target", recorded)  # the workers fork with it
    assert main(["--project", str(parallel), "generate"]) == 0
    assert digest(tree(parallel / "generated")) == digest(tree(serial / "generated"))
    jobs = [name.split("-", 1) for name in os.listdir(seen)]
    assert len(jobs) == len(MODULES) * len(rendering.module_targets())
    assert str(os.getpid()) not in {pid for pid, _ in jobs}  # all ran in the workers


def test_a_problem_found_in_a_worker_is_reported_with_its_location(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project(tmp_path / "p")
    monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 1)
    real = rendering.render_target

    def failing(module: ir.Module, target: str, env: object) -> object:
        if target == "elixir" and module.name == "nano_agent":
            raise InputError(
                [Diagnostic("schema/nano_agent.yaml", Position(3, 5), "/$defs/X", "worker said no")]
            )
        return real(module, target, env)  # type: ignore[arg-type]

    monkeypatch.setattr(rendering, "render_target", failing)  # the workers fork with it
    assert main(["--project", str(project), "generate"]) != 0
    err = capsys.readouterr().err
    assert "schema/nano_agent.yaml:3:5" in err and "worker said no" in err
    assert not (project / "generated").exists()  # nothing written


# --- the build's spool ---------------------------------------------------------------------


@pytest.fixture(params=["in memory", "on disk"])
def scratch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Path:
    """The system's temporary directory for this test: where the spool and ruff's files go.
    The spool keeps the files in memory (a small build) or puts every one on disk (past
    its memory budget, as a large build does)."""
    directory = tmp_path / "scratch"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    if request.param == "on disk":
        monkeypatch.setattr(spool, "MEMORY_BUDGET", 0)
    return directory


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_a_failed_render_leaves_the_old_outputs_and_no_scratch_files(
    generations: tuple[Path, dict[str, bytes]],
    tmp_path: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    parallel: bool,
) -> None:
    """Rendered files wait in a spool outside the output directory: when the last target
    of the last module fails, after every other file was spooled (and the Python ones
    given to ruff), nothing is written and nothing is left behind."""
    base, _ = generations
    project = copy_of(base, tmp_path / "p")
    old = tree(project / "generated")
    change_schemas(project)
    monkeypatch.setattr(rendering, "PARALLEL_MIN_TYPES", 1 if parallel else 10**9)
    real = rendering.render_target

    def failing(module: ir.Module, target: str, env: object) -> object:
        if target == "docs" and module.name == MODULES[-1]:
            raise InputError([Diagnostic("schema/x.yaml", Position(1, 1), "", "render said no")])
        return real(module, target, env)  # type: ignore[arg-type]

    monkeypatch.setattr(rendering, "render_target", failing)
    assert main(["--project", str(project), "generate"]) == 2
    assert tree(project / "generated") == old
    assert list(scratch.iterdir()) == []


def test_generate_and_check_leave_no_spool_behind(
    generations: tuple[Path, dict[str, bytes]],
    tmp_path: Path,
    scratch: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`check` diffs the spooled files against the disk; both commands remove the spool."""
    base, new = generations
    project = copy_of(base, tmp_path / "p")
    change_schemas(project)
    capsys.readouterr()
    assert main(["--project", str(project), "check"]) == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- a/") and "\n+" in diff and "Edited." in diff
    assert list(scratch.iterdir()) == []
    assert main(["--project", str(project), "generate"]) == 0
    assert tree(project / "generated") == new
    assert list(scratch.iterdir()) == []
    assert main(["--project", str(project), "check"]) == 0


def test_a_spool_keeps_files_in_memory_up_to_its_budget_then_on_disk(scratch: Path) -> None:
    store = spool.Spool(memory_budget=10)
    held_hash, held = store.put_bytes(b"0123456789")
    disk_hash, on_disk = store.put_bytes(b"x")
    assert isinstance(held, spool.Held) and held.read_bytes() == b"0123456789"
    assert isinstance(on_disk, Path) and on_disk.read_bytes() == b"x"
    assert on_disk.parent.parent == scratch
    assert held_hash == hashlib.sha256(b"0123456789").hexdigest()
    assert disk_hash == hashlib.sha256(b"x").hexdigest()
    store.close()
    assert store.closed and list(scratch.iterdir()) == []
