"""The catalogue ratchet (issue 31): CI's slice of the SchemaStore catalogue, measured by
tests/schemastore.py, must not do worse than tests/schemastore_expected.json records.

The slice is every `schemastore.SAMPLE`-th schema by name (a few minutes); the whole
catalogue is `nox -s schemastore`, not part of the default run.
"""

from __future__ import annotations

import argparse
import json
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
    # a figure the record predates is not compared until it is recorded
    assert schemastore.compare({**then, "untyped_roots_free_form": 3}, then, elixir=True) == (
        [],
        [],
    )


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


def test_each_slice_is_a_ratchet_of_its_own(tmp_path: Path) -> None:
    """`--slice N/M` is recorded under `slices` by its key; a figure the run did not
    measure keeps the recorded one."""
    parse = lambda **given: schemastore.ratchet_key(  # noqa: E731
        argparse.Namespace(**{"only": None, "sample": None, "slice": None, **given})
    )
    assert parse(slice=(3, 12)) == "slice 3/12"
    assert parse(slice=(3, 12), sample=25) is None
    assert parse() == "full"
    path = tmp_path / "expected.json"
    measured = {"type_checking": 4, "compiling": 3, "exact": {"pydantic": 2, "elixir": 1}}
    schemastore.write_expected("slice 2/10", measured, path)
    schemastore.write_expected("slice 10/10", measured, path)
    unmeasured = {"type_checking": 0, "compiling": 0, "exact": {"pydantic": 3, "elixir": 0}}
    schemastore.write_expected("slice 2/10", unmeasured, path, elixir=False, mypy=False)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert list(document["slices"]) == ["2/10", "10/10"]
    assert document["slices"]["2/10"] == {
        "type_checking": 4,
        "compiling": 3,
        "exact": {"pydantic": 3, "elixir": 1},
    }
    assert schemastore.read_expected(path)["slice 10/10"] == measured
