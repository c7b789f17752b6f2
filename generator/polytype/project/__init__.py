"""Project plumbing: `[tool.polytype]` (`config`), schema sources, fixtures, the no-op stamp, export, and the pipeline that builds every module of a project."""
