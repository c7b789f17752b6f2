"""The one error a workflow command raises for bad input (the command line exits 2)."""

from __future__ import annotations


class WorkflowError(Exception):
    """Invalid input to a workflow command: a missing file, an unknown module or type, ..."""
