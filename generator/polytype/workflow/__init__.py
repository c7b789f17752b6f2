"""The workflow around the schema: commands that feed it, check it and ship it.

One module per job. Reading: `recordings` (recorded JSON, bad lines kept as
values), `schemas` (a module's IR with its document), `classify` (dispatch
through unions), `shape` (keys-and-types fingerprints), `progress` (the
terminal progress bar). Commands: `importer` (`fixtures import`), `observe` +
`drift` + `patch` (`drift`), `vendor`, `init`, `dialect` (`schema-dialect`),
`revisions` + `variance` + `rules` + `breaking` (`diff`). `files` writes,
`errors` holds the one exception a command raises for bad input.
"""
