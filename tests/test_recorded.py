"""Real recorded JSON from ../shared/recorded decodes and round-trips exactly.

Each module's `tests/recorded_samples/<module>.json` names the type every
recorded file (every line, for .jsonl) must decode as, and the few samples
that are invalid on purpose, each with a reason and the error path.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from polytype.targets.base.helper_names import function_suffix

from .conftest import RECORDED, REPO, load_generated

SAMPLE_FILES = sorted((REPO / "tests" / "recorded_samples").glob("*.json"))
CHECKED_FOLDERS = ("claude_code", "ag_ui", "anthropic", "mcp")

pytestmark = pytest.mark.skipif(
    not RECORDED.is_dir(), reason="../shared/recorded is not present on this machine"
)


def _samples() -> list[tuple[str, str, str, int | None, Any]]:
    """(module, type, sample key, line, value) for every recorded value."""
    found = []
    for listing in SAMPLE_FILES:
        module = listing.stem
        spec = json.loads(listing.read_text(encoding="utf-8"))
        for relative, type_name in sorted(spec["samples"].items()):
            path = RECORDED / relative
            if not path.is_file():
                found.append((module, type_name, relative, None, FileNotFoundError(relative)))
                continue
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".jsonl":
                for number, line in enumerate(text.splitlines(), start=1):
                    if line.strip():
                        found.append(
                            (module, type_name, f"{relative}:{number}", number, json.loads(line))
                        )
            else:
                found.append((module, type_name, relative, None, json.loads(text)))
    return found


SAMPLES = _samples() if RECORDED.is_dir() else []


def _rejections() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for listing in SAMPLE_FILES:
        merged.update(json.loads(listing.read_text(encoding="utf-8"))["expected_rejections"])
    return merged


REJECTIONS = _rejections()


def test_every_recorded_file_is_assigned_a_type() -> None:
    named = set()
    for listing in SAMPLE_FILES:
        named |= set(json.loads(listing.read_text(encoding="utf-8"))["samples"])
    on_disk = {
        path.relative_to(RECORDED).as_posix()
        for folder in CHECKED_FOLDERS
        for path in (RECORDED / folder).glob("*")
        if path.suffix in (".json", ".jsonl")
    }
    assert on_disk - named == set(), "recorded samples no test decodes"
    assert named - on_disk == set(), "samples listed that no longer exist"


def test_expected_rejections_name_existing_samples() -> None:
    keys = {key for _, _, key, _, _ in SAMPLES}
    whole_files = {key.rsplit(":", 1)[0] for key in keys}
    stale = [key for key in REJECTIONS if key not in keys and key not in whole_files]
    assert not stale, f"expected rejections for samples that do not exist: {stale}"
    for key, entry in REJECTIONS.items():
        assert entry.get("reason") and entry.get(
            "path"
        ), f"{key}: every expected rejection has a reason and a path"


@pytest.mark.parametrize(
    ("module", "type_name", "key", "line", "value"), SAMPLES, ids=[s[2] for s in SAMPLES]
)
def test_recorded_sample(
    module: str, type_name: str, key: str, line: int | None, value: Any
) -> None:
    assert not isinstance(value, FileNotFoundError), f"{key} is listed but missing"
    models = load_generated(module)
    suffix = function_suffix(type_name)
    decode = getattr(models, f"decode_{suffix}")
    encode = getattr(models, f"encode_{suffix}")
    pristine = copy.deepcopy(value)
    rejection = REJECTIONS.get(key) or REJECTIONS.get(key.rsplit(":", 1)[0] if line else "")
    if rejection is not None:
        with pytest.raises(models.DecodeError) as raised:
            decode(value)
        assert raised.value.path == rejection["path"], f"{rejection['reason']}: {raised.value}"
        return
    decoded = decode(value)
    assert value == pristine, "decoding mutated its input"
    assert encode(decoded) == value
