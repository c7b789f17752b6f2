"""The front end: passes from a consumed schema document to a document polytype's
dialect reads, each a small function of `reading.Document` to `Document`.

    normalise the draft (`drafts`) → resolve and bundle references (`bundle`,
    `sanitise`) → drop annotations and move what no type can express into schema
    checks (`generous`, `checks`) → merge allOf, name unions (`shapes`, running
    `all_of`, `union_rewrites`, `union_siblings`, `union_naming`; `schema_merge`)

The front end never validates and never lowers: `polytype.compile` runs it, then the
dialect's validation and lowering.
"""
