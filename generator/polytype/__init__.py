"""polytype: one schema, every output, proven to round-trip real data."""

__version__ = "0.1.0"
