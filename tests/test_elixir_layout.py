"""The Elixir layout helpers write what `mix format` writes (cases taken from its output).

Views hand the layout calls, lists, tuples and clauses with their parts (never text to
re-read); tests/test_formatting.py runs `mix format --check-formatted` on whole generated
trees when Elixir is installed; these cases need no Elixir.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from polytype.targets.elixir import layout
from polytype.targets.elixir.layout import Conditional, Items, call, clause

LONG = '"' + "x" * 90 + '"'


def test_short_snippets_stay_on_one_line() -> None:
    required = call("R.required", "data", '"a"', '".a"', "&R.string/1")
    assert layout.laid(required, 9) == 'R.required(data, "a", ".a", &R.string/1)'
    ok = clause("def", "decode", "nil", Items("{", (":ok", "nil")))
    assert layout.definition(ok, 2) == "def decode(nil), do: {:ok, nil}"


def test_a_long_call_takes_one_argument_a_line() -> None:
    assert layout.laid(call("R.unknown_value", "data", LONG), 6) == (
        f"R.unknown_value(\n        data,\n        {LONG}\n      )"
    )


def test_a_term_that_never_breaks_stays_whole() -> None:
    assert layout.laid(LONG + LONG, 6) == LONG + LONG
    assert layout.laid(call("R.json_object"), 90) == "R.json_object()"


def test_a_long_definition_breaks_after_the_head_then_after_do() -> None:
    body = call("NanoAgent.ToolResultContent.to_json", "value")
    head = "def to_json(%NanoAgent.ToolResultContent{} = value)"
    encode = clause("def", "to_json", "%NanoAgent.ToolResultContent{} = value", body)
    assert layout.definition(encode, 2) == f"{head},\n    do: {body}"
    decode = clause("def", "decode", "data", call("R.x", "data", LONG), "is_binary(data)")
    assert layout.definition(decode, 2) == (
        "def decode(data) when is_binary(data),\n"
        "    do:\n"
        "      R.x(\n"
        "        data,\n"
        f"        {LONG}\n"
        "      )"
    )


def test_a_long_tuple_takes_one_element_a_line() -> None:
    error = Items("{", (":error", Items("{", ('""', LONG))))
    assert layout.laid(error, 8) == f'{{:error,\n         {{"",\n          {LONG}}}}}'


def test_case_clauses_break_together() -> None:
    short = [("{:ok, 1}", "one"), (":error", "two")]
    assert layout.arrow_clauses(short, 6) == ["{:ok, 1} -> one", ":error -> two"]
    broken = layout.arrow_clauses([("{:ok, 1}", "one"), (":error", call("R.x", LONG))], 6)
    assert broken[0] == "{:ok, 1} ->\n        one"
    assert broken[1] == ""  # a blank line between broken clauses


def test_blank_lines_surround_multi_line_statements_but_not_after_attributes() -> None:
    text = layout.block(["a = 1", "b =\n      2", "c = 3", "@doc false", "def f,\n    do: 1"], 4)
    assert (
        text == "    a = 1\n\n    b =\n      2\n\n    c = 3\n    @doc false\n    def f,\n    do: 1"
    )


def test_conditional_assignment_breaks_like_mix_format() -> None:
    conditional = Conditional(
        '"cache_creation_input_tokens" in present',
        "value.cache_tokens",
        "",
        call("Map.put", "out", '"k"', "1"),
        "out",
    )
    condition = 'if "cache_creation_input_tokens" in present or not is_nil(value.cache_tokens)'
    assert layout.assignment("out", conditional, 4) == (
        f'out =\n      {condition},\n        do: Map.put(out, "k", 1),\n        else: out'
    )


def test_an_assigned_call_goes_under_its_variable_then_breaks_as_mix_format_does() -> None:
    """The three layouts `mix format` gives `out = R.put_optional(...)` (checked with mix
    format 1.14): one line; the call alone on the next line; one argument a line."""

    def put(key: str) -> layout.Call:
        return call("R.put_optional", "out", "present", f'"{key}"', f"value.{key}", "&e/1")

    assert layout.assigned("out", put("ratio"), 4) == (
        'out = R.put_optional(out, present, "ratio", value.ratio, &e/1)'
    )
    middle = "k" * 23
    assert layout.assigned("out", put(middle), 4) == (
        f'out =\n      R.put_optional(out, present, "{middle}", value.{middle}, &e/1)'
    )
    long = "k" * 50
    assert layout.assigned("out", put(long), 4) == (
        "out =\n      R.put_optional(\n"
        + "".join(f"        {arg},\n" for arg in ("out", "present", f'"{long}"', f"value.{long}"))
        + "        &e/1\n      )"
    )


def test_a_long_or_condition_breaks_after_or_and_a_list_hugs_its_operator() -> None:
    left = '"a_rather_long_json_key_that_takes_room" in present'
    listed = Items("[", tuple(f'"{letter * 20}"' for letter in "abcd"))
    conditional = Conditional(left, "value.a_rather_long_field", listed, "out", "out")
    assert layout.assignment("out", conditional, 4) == (
        f"out =\n      if {left} or\n           value.a_rather_long_field != [\n"
        + "".join(
            f'             "{letter * 20}"{"," if letter != "d" else ""}\n' for letter in "abcd"
        )
        + "           ],\n         do: out,\n         else: out"
    )


def test_pairs_put_a_long_value_under_the_key_but_break_a_list_after_it() -> None:
    """From mix format on a struct typespec: a list or a map stays on the key's line."""
    assert layout.pair("name:", "String.t()", 10, ",") == "name: String.t()"
    long_type = f"Namespace.{'Module' * 14}.t()"
    long_list = Items("[", (long_type,))
    assert layout.pair("items:", long_list, 10, "") == (
        f"items: [\n            {long_type}\n          ]"
    )
    nullable = layout.alternatives(long_list, "nil")
    assert layout.pair("b:", nullable, 10, ",") == (
        f"b:\n            [\n              {long_type}\n            ]\n            | nil"
    )


def test_defstruct_takes_one_pair_a_line_aligned_after_defstruct() -> None:
    assert layout.keyword_call("defstruct", [("a:", "nil")], 2) == "defstruct a: nil"
    assert layout.keyword_call("defstruct", [("a:", "nil"), ("b:", "1")], 2) == (
        "defstruct a: nil,\n            b: 1"
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
    body = call("SearchAgent.WebSearchToolResultError.decode", "value")
    text = layout.definition(clause("defp", name, "value", body, "is_map(value)"), 2)
    assert text == (
        f"defp {name}(value)\n"
        "       when is_map(value),\n"
        "       do: SearchAgent.WebSearchToolResultError.decode(value)"
    )


def test_a_broken_defp_head_aligns_after_defp_and_def_after_def() -> None:
    name = "e_union_web_search_tool_result_error_or_list_web_search_result_block"
    struct = "%SearchAgent.WebSearchToolResultError{} = value"
    body = call("SearchAgent.WebSearchToolResultError.to_json", "value")
    assert layout.definition(clause("defp", name, struct, body), 2) == (
        f"defp {name}(\n         {struct}\n       ),\n       do: {body}"
    )
    assert layout.definition(clause("def", name, struct, body), 2) == (
        f"def {name}(\n        {struct}\n      ),\n      do: {body}"
    )


_LEAVES = st.sampled_from(["data", "&R.string/1", '"a, b"', ":ok", "nil", LONG, "x" * 40])
_CODE = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.builds(
            lambda name, args: layout.Call(name, tuple(args)),
            st.sampled_from(["f", "R.required", "Schema.Module.decode"]),
            st.lists(inner, max_size=4),
        ),
        st.builds(
            lambda opening, items: Items(opening, tuple(items)),
            st.sampled_from(["[", "{"]),
            st.lists(inner, max_size=4),
        ),
        st.builds(
            lambda members: layout.alternatives(*members), st.lists(inner, min_size=1, max_size=4)
        ),
    ),
    max_leaves=12,
)


@given(_CODE, st.integers(min_value=0, max_value=40))
def test_laying_out_only_adds_line_breaks_and_indentation(code: layout.Code, indent: int) -> None:
    """`laid` never changes a term, only where its lines break; it breaks nothing that fits."""
    text = layout.laid(code, indent)
    one_line = layout.flat(code)
    assert re.sub(r"\s", "", text) == re.sub(r"\s", "", one_line)
    if layout.fits(one_line, indent):
        assert text == one_line


_VERY_LONG = (
    "d_union_all_rules_at_rule_empty_line_before_option2_or_list_union_all_rules_at_rule_empty"
)


def test_a_head_too_long_by_itself_breaks_its_argument_then_the_guard() -> None:
    """From mix format: the argument on its own line, `when` and `do` aligned after `defp `."""
    body = call("Schema.Rule.decode", "value")
    text = layout.definition(clause("defp", _VERY_LONG, "value", body, "is_binary(value)"), 2)
    assert text == (
        f"defp {_VERY_LONG}(\n         value\n       )\n"
        "       when is_binary(value),\n       do: Schema.Rule.decode(value)"
    )
    assert layout.block_head("defp", _VERY_LONG, "data", "is_map(data)", 2) == (
        f"defp {_VERY_LONG}(\n         data\n       )\n       when is_map(data) do"
    )
    assert layout.block_head("defp", _VERY_LONG, "data", "", 2) == (
        f"defp {_VERY_LONG}(\n         data\n       ) do"
    )
    assert layout.block_head("def", "decode", "data", "is_map(data)", 2) == (
        "def decode(data) when is_map(data) do"
    )


def test_a_long_union_type_puts_each_member_behind_a_bar() -> None:
    """From mix format on a record field typespec (stylelintrc)."""
    first = "Schema.AllRulesAtRuleEmptyLineBeforeOption2.t()"
    inner = (
        "Schema.AllRulesAtRuleEmptyLineBeforeOption3ItemOption1.t()",
        "Schema.AllRulesAtRuleEmptyLineBeforeOption3ItemOption2.t()",
    )
    spec = layout.alternatives(first, Items("[", (layout.alternatives(*inner),)), "nil")
    assert layout.pair("at_rule_empty_line_before:", spec, 10, ",") == (
        "at_rule_empty_line_before:\n"
        f"            {first}\n"
        "            | [\n"
        f"                {inner[0]}\n"
        f"                | {inner[1]}\n"
        "              ]\n"
        "            | nil"
    )
    assert layout.flat(spec) == f"{first} | [{inner[0]} | {inner[1]}] | nil"


def test_a_with_pattern_too_long_for_its_line_fills_it_as_a_tuple() -> None:
    """From mix format on a catalogue schema: `{:ok,` then the variable aligned after `{`."""
    from polytype.targets.elixir.clauses import with_step

    variable = "local_security_options_" * 3 + "allow_remote_calls"
    step = with_step(Items("{", (":ok", variable)), call("R.optional", "data"), ",")
    assert step == f"{{:ok,\n          {variable}}} <-\n           R.optional(data)"


def test_a_map_entry_breaks_after_its_key_only_when_the_bracket_fits() -> None:
    """From mix format on a catalogue schema: a key too long for `key => %{` puts the map
    under it."""
    from polytype import ir
    from polytype.targets.elixir.terms import json_term

    key = "Block" + "Credential" * 9
    value = ir.FrozenJSONObject(((key, ir.FrozenJSONObject((("type", "array"),))),))
    assert json_term(value, 98, 6) == (
        f'%{{\n        "{key}" =>\n          %{{"type" => "array"}}\n      }}'
    )
    entry = layout.Arrow(f'"{key}"', Items("%{", ('"type" => "array"',)))
    assert layout.laid(entry, 8) == f'"{key}" =>\n          %{{"type" => "array"}}'


def test_the_last_fixture_pair_has_no_comma_to_fit() -> None:
    """From mix format on dependabot's ExUnit suite: the last `{Module, "path"}` of the
    list is followed by no comma, so 92 columns at column 6 fit."""
    from polytype.targets.elixir.exunit import CaseView

    path = "schema/GitHubDependabotV2Config/i019_target_branch.json"
    case = CaseView("i019", "Schema.GitHubDependabotV2Config", path, "")
    assert case.pair("") == f'{{Schema.GitHubDependabotV2Config, "{path}"}}'
    assert case.pair(",") == f'{{Schema.GitHubDependabotV2Config,\n       "{path}"}},'
