"""Helpers both benchmark harnesses share: messages and how busy the machine is."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def log(msg: str) -> None:
    """A progress line on stderr, flushed at once."""
    print(msg, file=sys.stderr, flush=True)


def die(msg: str, code: int = 2) -> None:
    """Stops the benchmark with a one-line message."""
    log(f"bench: {msg}")
    sys.exit(code)


def proc_stat() -> tuple[int, int] | None:
    """(total, idle + iowait) CPU time in clock ticks since boot, all cores, from /proc/stat."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(fields[:8]), fields[3] + fields[4]


def cpu_busy(seconds: float = 2.0) -> float:
    """Percent of all CPU time spent busy over a short sample: what other processes are using
    while nothing of ours runs. Unlike the load average it does not lag."""
    a = proc_stat()
    time.sleep(seconds)
    b = proc_stat()
    if not a or not b or b[0] == a[0]:
        return 0.0
    return 100.0 * (1 - (b[1] - a[1]) / (b[0] - a[0]))


def word_errors(reference: list[str], hypothesis: list[str]) -> int:
    """Levenshtein distance over words: substitutions + deletions + insertions."""
    prev = list(range(len(hypothesis) + 1))
    for i, r in enumerate(reference, 1):
        cur = [i] + [0] * len(hypothesis)
        for j, h in enumerate(hypothesis, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h))
        prev = cur
    return prev[-1]
