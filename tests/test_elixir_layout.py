"""The Elixir layout helpers write what `mix format` writes (cases taken from its output).

tests/test_formatting.py runs `mix format --check-formatted` on whole generated trees
when Elixir is installed; these cases need no Elixir.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from polytype.targets.elixir import layout

LONG = '"' + "x" * 90 + '"'


def test_short_snippets_stay_on_one_line() -> None:
    assert layout.expression('R.required(data, "a", ".a", &R.string/1)', 9) == (
        'R.required(data, "a", ".a", &R.string/1)'
    )
    assert layout.definition("def decode(nil), do: {:ok, nil}", 2) == (
        "def decode(nil), do: {:ok, nil}"
    )


def test_a_long_call_takes_one_argument_a_line() -> None:
    assert layout.expression(f"R.unknown_value(data, {LONG})", 6) == (
        f"R.unknown_value(\n        data,\n        {LONG}\n      )"
    )


def test_a_long_definition_breaks_after_the_head_then_after_do() -> None:
    body = "NanoAgent.ToolResultContent.to_json(value)"
    head = "def to_json(%NanoAgent.ToolResultContent{} = value)"
    assert layout.definition(f"{head}, do: {body}", 2) == f"{head},\n    do: {body}"
    text = layout.definition(f"def decode(data) when is_binary(data), do: R.x(data, {LONG})", 2)
    assert text == (
        "def decode(data) when is_binary(data),\n"
        "    do:\n"
        "      R.x(\n"
        "        data,\n"
        f"        {LONG}\n"
        "      )"
    )


def test_a_long_tuple_takes_one_element_a_line() -> None:
    assert layout.expression(f'{{:error, {{"", {LONG}}}}}', 8) == (
        f'{{:error,\n         {{"",\n          {LONG}}}}}'
    )


def test_case_clauses_break_together() -> None:
    short = [("{:ok, 1}", "one"), (":error", "two")]
    assert layout.arrow_clauses(short, 6) == ["{:ok, 1} -> one", ":error -> two"]
    broken = layout.arrow_clauses([("{:ok, 1}", "one"), (":error", f"R.x({LONG})")], 6)
    assert broken[0] == "{:ok, 1} ->\n        one"
    assert broken[1] == ""  # a blank line between broken clauses


def test_blank_lines_surround_multi_line_statements_but_not_after_attributes() -> None:
    text = layout.block(["a = 1", "b =\n      2", "c = 3", "@doc false", "def f,\n    do: 1"], 4)
    assert (
        text == "    a = 1\n\n    b =\n      2\n\n    c = 3\n    @doc false\n    def f,\n    do: 1"
    )


def test_conditional_assignment_breaks_like_mix_format() -> None:
    condition = 'if "cache_creation_input_tokens" in present or not is_nil(value.cache_tokens)'
    text = layout.assignment("out", f'{condition}, do: Map.put(out, "k", 1), else: out', 4)
    assert text == (
        "out =\n" f"      {condition},\n" '        do: Map.put(out, "k", 1),\n' "        else: out"
    )


def test_lists_and_unions_break_one_item_a_line() -> None:
    items = [f'"{name * 30}"' for name in "abcd"]
    assert layout.list_literal(items, 2, "@known_keys ").startswith("@known_keys [\n    ")
    members = [f"Namespace.Module{index}.t()" for index in range(6)]
    assert layout.union_type("@type t", members, 2) == (
        "@type t ::\n          " + "\n          | ".join(members)
    )


def test_a_long_guarded_head_puts_when_and_do_under_the_name() -> None:
    """From mix format on search_agent: continuation lines align after `defp `."""
    name = "d_union_web_search_tool_result_error_or_list_web_search_result_block"
    text = layout.definition(
        f"defp {name}(value) when is_map(value), do: SearchAgent.WebSearchToolResultError.decode(value)",
        2,
    )
    assert text == (
        f"defp {name}(value)\n"
        "       when is_map(value),\n"
        "       do: SearchAgent.WebSearchToolResultError.decode(value)"
    )


def test_a_broken_defp_head_aligns_after_defp_and_def_after_def() -> None:
    name = "e_union_web_search_tool_result_error_or_list_web_search_result_block"
    struct = "%SearchAgent.WebSearchToolResultError{} = value"
    body = "SearchAgent.WebSearchToolResultError.to_json(value)"
    assert layout.definition(f"defp {name}({struct}), do: {body}", 2) == (
        f"defp {name}(\n         {struct}\n       ),\n       do: {body}"
    )
    assert layout.definition(f"def {name}({struct}), do: {body}", 2) == (
        f"def {name}(\n        {struct}\n      ),\n      do: {body}"
    )


_PIECES = ["a", " ", ",", "(", ")", "[", "]", "{", "}", '"', "\\", "_", "\n"]
_NEEDLES = [" or ", ", do: ", ", else: ", " = ", " ", " != ", " when "]


@given(
    st.lists(st.sampled_from([*_PIECES, *_NEEDLES]), max_size=30).map("".join),
    st.sampled_from(_NEEDLES),
)
def test_finding_a_top_level_needle_agrees_with_the_character_scan(text: str, needle: str) -> None:
    """`_find_top` masks strings and counts brackets with `str` methods (it runs on every
    long line the target lays out); it must find what the scan of `_top_level` finds,
    unterminated strings and stray backslashes included."""
    scanned = next((at for at in layout._top_level(text) if text.startswith(needle, at)), -1)
    assert layout._find_top(text, needle) == scanned
