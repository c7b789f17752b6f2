"""The catalogue ratchet (issue 31): CI's slice of the SchemaStore catalogue, measured by
tests/schemastore.py, must not do worse than tests/schemastore_expected.json records.

The slice is every `schemastore.SAMPLE`-th schema by name (a few minutes); the whole
catalogue is `nox -s schemastore`, not part of the default run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from . import corpus, schemastore

ELIXIR = corpus.elixir_available()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    assert (
        schemastore.CATALOGUE / "index.json"
    ).is_file(), f"the catalogue is read in place from {schemastore.CATALOGUE}"
    if not ELIXIR and os.environ.get("CI") == "true":
        pytest.fail("elixir is not installed, and CI must measure the Elixir flavor")
    chosen = schemastore.select(schemastore.read_index(), sample=schemastore.SAMPLE)
    results, _ = schemastore.measure(chosen, tmp_path_factory.mktemp("schemastore"))
    return schemastore.figures(results)


def test_the_slice_is_no_worse_than_recorded(sample: dict[str, Any]) -> None:
    key = f"sample-{schemastore.SAMPLE}"
    expected = schemastore.read_expected()[key]
    worse, better = schemastore.compare(sample, expected, ELIXIR)
    print(schemastore.table(sample, 0.0), *better, sep="\n")
    assert not worse, "\n".join([f"worse than tests/schemastore_expected.json ({key}):", *worse])


# --- the harness itself ------------------------------------------------------------------


def test_selections_are_deterministic_slices_of_the_sorted_catalogue() -> None:
    schemas = [
        schemastore.CatalogueSchema(name, f"{name}.json", "draft-07", (), ())
        for name in "abcdefghij"
    ]
    names = lambda chosen: "".join(s.name for s in chosen)  # noqa: E731
    assert names(schemastore.select(schemas, sample=3)) == "adgj"
    assert names(schemastore.select(schemas, part=(2, 4))) == "bfj"
    assert names(schemastore.select(schemas, only=["c", "a"])) == "ac"
    with pytest.raises(SystemExit):
        schemastore.select(schemas, only=["nope"])


def test_the_ratchet_fails_on_worse_figures_in_either_direction() -> None:
    then = {"generated": 5, "refused": 2, "exact": {"pydantic": 3, "elixir": 1}, "schemas": 7}
    same = schemastore.compare(then, then, elixir=True)
    assert same == ([], [])
    now = {"generated": 4, "refused": 1, "exact": {"pydantic": 4, "elixir": 0}, "schemas": 7}
    worse, better = schemastore.compare(now, then, elixir=True)
    assert worse == ["exact.elixir got worse: 1 -> 0", "generated got worse: 5 -> 4"]
    assert better == ["exact.pydantic improved: 3 -> 4", "refused improved: 2 -> 1"]
    assert schemastore.compare(now, then, elixir=False)[0] == ["generated got worse: 5 -> 4"]
    moved = schemastore.compare({**then, "schemas": 8}, then, elixir=True)
    assert moved[0] == ["schemas is 8, recorded 7 (the catalogue changed?)"]


def test_warning_kinds_blank_names_and_numbers() -> None:
    kind = schemastore.warning_kind
    assert kind("default ignored: default does not match the property's schema: None") == (
        "default ignored"
    )
    assert kind(
        "union graphTraversal cannot tell graphTraversalOption1 apart from the other "
        "members: it has no tag"
    ) == ("union … cannot tell … apart from the other members")
    assert kind("cannot resolve '#/definitions/X' (PointerToNowhere): the value") == (
        "cannot resolve … (PointerToNowhere)"
    )


def test_the_harness_names_modules_as_polytype_does(tmp_path: Path) -> None:
    """The schema directory links each schema under its published file name."""
    schema = schemastore.read_index()[0]
    schemastore.write_project(tmp_path, [schema])
    link = tmp_path / "schema" / schema.file
    assert link.is_symlink() and link.resolve() == schema.path.resolve()
    settings = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert "strict = false" in settings
    assert f'python-package = "{schemastore.PACKAGE}"' in settings
