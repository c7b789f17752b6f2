"""JSON text read by the generated dataclasses: msgspec, when installed, parses it faster
and changes nothing (issue 32).

`_parse` hands the text to msgspec's parser and keeps what it builds only where json would
build the same; whatever msgspec refuses (NaN and infinity, numbers out of range, integers
of 4,300 digits, lone surrogates, a BOM, UTF-16 and UTF-32, deep nesting) json parses, for
its verdict and its error. Every test here compares the two paths of one runtime, and the
tests of JSON text elsewhere run both (the `json_parser` fixture).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from polytype.project.fixtures import discover

from .conftest import REPO, load_generated

FIXTURES = REPO / "tests" / "fixtures"


def _runtime() -> Any:
    return load_generated("ag_ui", "_runtime")


def _outcome(parse: Any, text: str | bytes) -> tuple[str, str]:
    try:
        return "value", repr(parse(text))
    except Exception as error:  # the verdict and the words of any failure
        return type(error).__name__, str(error)


def _both(text: str | bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    runtime = _runtime()
    fast = _outcome(runtime._parse, text)
    with monkeypatch.context() as patched:
        patched.setattr(runtime, "_FAST_LOADS", None)
        plain = _outcome(runtime._parse, text)
    return fast, plain


def test_msgspec_parses_when_it_is_installed() -> None:
    assert _runtime()._FAST_LOADS is not None


def test_json_parses_alone_without_msgspec(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def without_msgspec(name: str, package: str | None = None) -> Any:
        if name.startswith("msgspec"):
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_msgspec)
    assert _runtime()._msgspec_decode() is None


DOCUMENTS: list[str | bytes] = [
    "{}",
    "[]",
    ' {"a": [1, 2.5, -0, -0.0, 1E5, 1e-400, true, false, null, "x"]} ',
    '{"a": 1, "b": 2, "a": 3}',  # the last of repeated keys, in the first one's place
    '{"\\u00e9": "\\ud83d\\ude00", "k": "\\u0000"}',
    '"\\ud800"',  # a lone surrogate: json keeps it, msgspec refuses it
    '{"\\udfff": 1}',
    "NaN",
    "[Infinity]",
    '{"x": -Infinity}',
    "1e400",
    "[-1e400]",
    "1.7976931348623159e308",
    "9" * 4300,
    "-" + "9" * 4300,
    "9" * 4301,
    "9" * 4299 + ".0",
    "123456789012345678901234567890",
    "[1,]",
    "{",
    "",
    "[1] x",
    "01",
    "\ufeff[1]",
    "\x0c1",
    '"a\tb"',
    "[" * 100 + "]" * 100,
    "[" * 3000 + "]" * 3000,
    b"\xef\xbb\xbf[1]",
    '["é"]'.encode("utf-16"),
    '["é"]'.encode("utf-16-le"),
    '["é"]'.encode("utf-32"),
    b'"\xed\xa0\x80"',  # a surrogate encoded in UTF-8: json reads it (surrogatepass)
    b'"\xc0\xaf"',
    b'"\xff"',
    b"[1, 2]",
]


@pytest.mark.parametrize("text", DOCUMENTS, ids=[repr(text)[:40] for text in DOCUMENTS])
def test_both_parsers_read_a_document_alike(
    text: str | bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, plain = _both(text, monkeypatch)
    assert fast == plain


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**60), max_value=10**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(value=_VALUES, ascii_only=st.booleans(), as_bytes=st.booleans())
def test_both_parsers_read_any_json_alike(value: Any, ascii_only: bool, as_bytes: bool) -> None:
    runtime = _runtime()
    text = json.dumps(value, ensure_ascii=ascii_only)
    document: str | bytes = text.encode("utf-8", "surrogatepass") if as_bytes else text
    fast = _outcome(runtime._FAST_LOADS, document)
    plain = _outcome(runtime._loads, document)
    if fast[0] == "value":  # where msgspec reads it, it reads what json reads
        assert fast == plain
    assert _outcome(runtime._parse, document) == plain


def _fixtures(valid: bool) -> list[tuple[str, Path]]:
    cases = [
        (case.type_name, FIXTURES / case.relative_path)
        for case in discover(FIXTURES, "ag_ui")
        if ("/invalid/" not in case.relative_path) == valid
    ]
    assert cases
    return cases


def test_fixtures_decode_alike_from_either_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    models = load_generated("ag_ui", "dataclass_models")
    runtime = _runtime()
    for valid in (True, False):
        for type_name, path in _fixtures(valid):
            decoded = getattr(models, type_name, None)
            if decoded is None or not hasattr(decoded, "from_json"):
                continue
            text = path.read_bytes()
            fast = _outcome(lambda data, cls=decoded: cls.from_json(data).to_dict(), text)
            with monkeypatch.context() as patched:
                patched.setattr(runtime, "_FAST_LOADS", None)
                plain = _outcome(lambda data, cls=decoded: cls.from_json(data).to_dict(), text)
            assert fast == plain, path
            assert (fast[0] == "value") == valid, path
