"""A one-line progress bar on stderr for long runs; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

_WIDTH = 30
_DELAY = 0.3  # seconds before the bar first appears, so short runs never flash one
_INTERVAL = 0.1  # seconds between redraws


class Progress:
    """Counts units of work; draws `label [####......] 120/400` while it runs.

    Draws only when `stream` is a TTY (or `enabled` says so); `total` None
    shows a plain count. Always clears its line when closed.
    """

    def __init__(
        self,
        label: str,
        total: int | None,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        delay: float = _DELAY,
    ) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_tty(self.stream) if enabled is None else enabled
        self._started = time.monotonic()
        self._drawn_at: float | None = None
        self._delay = delay

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def advance(self, units: int = 1) -> None:
        self.done += units
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._started < self._delay:
            return
        if self._drawn_at is not None and now - self._drawn_at < _INTERVAL:
            return
        self._drawn_at = now
        self.stream.write("\r" + self.line())
        self.stream.flush()

    def line(self) -> str:
        if not self.total:
            return f"{self.label} {self.done}"
        fraction = min(1.0, self.done / self.total)
        filled = int(fraction * _WIDTH)
        bar = "#" * filled + "." * (_WIDTH - filled)
        return f"{self.label} [{bar}] {self.done}/{self.total} {int(fraction * 100):3d}%"

    def close(self) -> None:
        if self.enabled and self._drawn_at is not None:
            self.stream.write("\r" + " " * len(self.line()) + "\r")
            self.stream.flush()
            self._drawn_at = None


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
