"""When each reference word was shown by a live transcriber: first, final and settled.

This mirrors WordMatcher in Benchmarks/LiveBenchmark/WordLatency.swift step for step, so that
whisper.cpp's streaming example is measured exactly as our live path measures itself (bench.py
also re-measures our runs with it and checks that the two agree).

An event is something a live transcriber showed: a dict with `time` (seconds since the audio's
first sample was spoken), `is_final`, `start` and `end` (the audio it covers, in seconds) and
`text`. A reference word is a dict with `word` (normalized), `start`, `end` and `pause_after`.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchsupport import word_errors  # noqa: E402

# Leeway for the reference times, which come from Whisper's token timestamps, in seconds.
SLACK = 0.3

# Abbreviations Whisper writes that a reference may spell out.
ABBREVIATIONS = {"mr": "mister", "mrs": "missus", "dr": "doctor"}


def words(text: str) -> list[str]:
    """The normalized words of `text`: lowercase, apostrophes dropped, other punctuation as
    spaces, anything in brackets or parentheses ([BLANK_AUDIO], (music)) left out."""
    plain = []
    depth = 0
    for ch in text.lower():
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth = max(0, depth - 1)
        elif ch in "'\u2019":
            continue
        elif depth == 0:
            plain.append(ch if ch.isalpha() or ch.isdigit() or ch.isspace() else " ")
    return [ABBREVIATIONS.get(w, w) for w in "".join(plain).split()]


def align(hypothesis: list[str], reference: list[str], allowed) -> list[tuple[int, int]]:
    """Aligns `hypothesis` with `reference` by edit distance, where a pair counts as a match only
    when the words are equal and allowed(hypothesis_index, reference_index) holds. Returns the
    matched (hypothesis index, reference index) pairs in order."""
    rows, columns = len(reference), len(hypothesis)
    if rows == 0 or columns == 0:
        return []

    def matches(r: int, c: int) -> bool:
        return reference[r - 1] == hypothesis[c - 1] and allowed(c - 1, r - 1)

    distance = [[0] * (columns + 1) for _ in range(rows + 1)]
    for r in range(rows + 1):
        distance[r][0] = r
    for c in range(columns + 1):
        distance[0][c] = c
    for r in range(1, rows + 1):
        above, row = distance[r - 1], distance[r]
        for c in range(1, columns + 1):
            diagonal = above[c - 1] + (0 if matches(r, c) else 1)
            row[c] = min(diagonal, above[c] + 1, row[c - 1] + 1)
    pairs = []
    r, c = rows, columns
    while r > 0 and c > 0:
        if matches(r, c) and distance[r][c] == distance[r - 1][c - 1]:
            pairs.append((c - 1, r - 1))
            r, c = r - 1, c - 1
        elif distance[r][c] == distance[r - 1][c - 1] + 1:
            r, c = r - 1, c - 1
        elif distance[r][c] == distance[r - 1][c] + 1:
            r -= 1
        else:
            c -= 1
    return pairs[::-1]


def covers(event: dict, word: dict) -> bool:
    """Whether `event` covers `word`: their audio overlaps (with SLACK) and the word had begun by
    the time the event arrived."""
    return (word["start"] < event["end"] + SLACK and word["end"] > event["start"] - SLACK
            and word["start"] <= event["time"] + SLACK)


def timings(reference: list[dict], events: list[dict]) -> list[dict]:
    """For each reference word: when it was first shown (`first`, by any result), first shown by
    a volatile result (`first_volatile`), made final (`final`) and settled (`settled`: from when
    on every result covering it contained it, up to its final); None when never."""
    result = [{"first": None, "first_volatile": None, "final": None, "settled": None} for _ in reference]
    matched = [set() for _ in events]
    reference_words = [w["word"] for w in reference]

    # Finals: all of them, joined, against the whole reference.
    final_words, final_owners = [], []
    for index, event in enumerate(events):
        if event["is_final"]:
            ws = words(event["text"])
            final_words += ws
            final_owners += [index] * len(ws)
    pairs = align(final_words, reference_words,
                  lambda h, w: covers(events[final_owners[h]], reference[w]))
    for h, w in pairs:
        owner = final_owners[h]
        result[w]["final"] = events[owner]["time"]
        matched[owner].add(w)

    # Volatile results: each against the reference words its audio covers.
    for index, event in enumerate(events):
        if event["is_final"]:
            continue
        window = [i for i in range(len(reference)) if covers(event, reference[i])]
        for _, local in align(words(event["text"]), [reference_words[i] for i in window], lambda h, w: True):
            w = window[local]
            matched[index].add(w)
            if result[w]["first_volatile"] is None:
                result[w]["first_volatile"] = event["time"]

    for w in range(len(reference)):
        candidates = [t for t in (result[w]["first_volatile"], result[w]["final"]) if t is not None]
        result[w]["first"] = min(candidates) if candidates else None
        final = result[w]["final"]
        if final is None:
            continue
        settled = final
        for index in range(len(events) - 1, -1, -1):
            event = events[index]
            if event["time"] > final or not covers(event, reference[w]):
                continue
            if w not in matched[index]:
                break
            settled = event["time"]
        result[w]["settled"] = settled
    return result


def word_error_rate(hypothesis: str, reference: list[dict]) -> float:
    """The word error rate of `hypothesis` (a tool's final text) against the reference words,
    both normalized as `words` does: edits (substitutions, insertions, deletions) per reference
    word."""
    ref = [w["word"] for w in reference]
    return word_errors(ref, words(hypothesis)) / max(len(ref), 1)


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarize(reference: list[dict], events: list[dict]) -> dict:
    """Latencies per word (seconds after the word ended) and their medians, as LiveBenchmark
    reports them: `first`, `first_volatile`, `final`, `final_after_pause` (the last word before
    each pause) and `settled`."""
    per_word = []
    for word, t in zip(reference, timings(reference, events)):
        per_word.append({
            "word": word["word"], "end": word["end"], "pause_after": word["pause_after"],
            **{k: (None if v is None else v - word["end"]) for k, v in t.items()},
        })
    pause = [w for w in per_word if w["pause_after"]]

    def values(rows, key):
        return [w[key] for w in rows if w[key] is not None]

    medians = {k: median(values(per_word, k)) for k in ("first", "first_volatile", "final", "settled")}
    medians["final_after_pause"] = median(values(pause, "final"))
    counts = {
        "reference_words": len(per_word), "pause_words": len(pause),
        **{k: len(values(per_word, k)) for k in ("first", "first_volatile", "final")},
        "final_after_pause": len(values(pause, "final")),
    }
    return {"medians": medians, "counts": counts, "words": per_word}
