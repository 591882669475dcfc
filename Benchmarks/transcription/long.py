#!/usr/bin/env python3
"""Long recordings: does `voicenotes transcribe` keep its memory and speed on an hour of speech?

Builds two recordings from the same real speech (the LibriVox utterances of Debian's
pocketsphinx-testdata, each followed by half a second of silence, repeated): one of about 2
minutes and one of about 60. Transcribes each with `voicenotes transcribe` as a whole process,
measuring wall time, real-time factor, peak memory (wait4's ru_maxrss) and word error rate, then
analyses the hour's transcript with `voicenotes analyze --transcript-file` (the chunked analysis)
and reports its wall time and peak memory. The acceptance: the hour's peak memory within 10% of
the 2-minute file's, and its real-time factor no worse. See README.md beside this file.
Standard library only; shares bench.py's audio builder, runner and WER.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
from bench import Run, RunFailed, Tool, build_audio, die, engine_env, log, measure  # noqa: E402


def transcribe_tool(args, audio: Path) -> Tool:
    env = engine_env()
    env["VOICENOTES_MODELS"] = args.models
    argv = [args.voicenotes, "transcribe", str(audio), "--model", args.model, "--language", "en", "--format", "txt"]
    return Tool("ours", "voicenotes transcribe", argv, env)


def measure_analysis(args, transcript: str) -> tuple[float, float, str]:
    """Wall seconds, peak MiB and the JSON of `voicenotes analyze --transcript-file`, in a fresh
    cache (no saved prompt state)."""
    with tempfile.TemporaryDirectory() as folder:
        text = Path(folder) / "transcript.txt"
        text.write_text(transcript)
        env = engine_env()
        env["VOICENOTES_MODELS"] = args.models
        env["VOICENOTES_CACHE"] = str(Path(folder) / "cache")
        tool = Tool("analyze", "voicenotes analyze", [args.voicenotes, "analyze", "--transcript-file", str(text),
                                                      "--json", "--model", args.language_model], env)
        start = time.perf_counter()
        # measure() checks a transcript against a reference; an analysis has none, so its WER is ignored.
        run = measure(tool, "", args.timeout)
        return time.perf_counter() - start, run.peak_mib, run.text


def main() -> int:
    ap = argparse.ArgumentParser(description="An hour of speech against two minutes: memory, speed, analysis.")
    ap.add_argument("--minutes", type=float, default=60.0, help="length of the long recording (default 60)")
    ap.add_argument("--short-minutes", type=float, default=2.0, help="length of the short one (default 2)")
    ap.add_argument("--model", default="base-q8", help="speech model (default base-q8, the app's default)")
    ap.add_argument("--language-model", default="qwen-1.5b", help="language model for the analysis")
    ap.add_argument("--no-analysis", action="store_true", help="skip analysing the hour's transcript")
    ap.add_argument("--timeout", type=float, default=4 * 3600.0, help="per-process limit, s")
    ap.add_argument("--voicenotes", default=str(bench.ROOT / ".build" / "release" / "voicenotes"))
    ap.add_argument("--models", default=os.environ.get("VOICENOTES_MODELS") or str(bench.ROOT / ".deps" / "models"))
    ap.add_argument("--cache", default=str(bench.DEFAULT_CACHE))
    args = ap.parse_args()
    if not os.access(args.voicenotes, os.X_OK):
        die(f"{args.voicenotes} not found: build it with `swift build -c release`")

    cache = Path(args.cache)
    recordings = [build_audio(cache, minutes * 60, 0.5) for minutes in (args.short_minutes, args.minutes)]
    rows: list[tuple[str, float, Run]] = []
    for audio, reference, seconds in recordings:
        log(f"==> transcribing {audio.name} ({seconds / 60:.1f} min)")
        try:
            run = measure(transcribe_tool(args, audio), reference, args.timeout)
        except RunFailed as error:
            die(f"{audio.name}: {error}")
        log(f"    {run.wall:.1f} s wall, {run.peak_mib:.0f} MiB peak, WER {run.wer * 100:.1f}%")
        rows.append((audio.name, seconds, run))

    print(f"{'recording':32} {'audio min':>9} {'wall s':>8} {'RTF':>6} {'peak MiB':>9} {'WER %':>6}")
    for name, seconds, run in rows:
        print(f"{name:32} {seconds / 60:9.1f} {run.wall:8.1f} {run.wall / seconds:6.3f} {run.peak_mib:9.0f} "
              f"{run.wer * 100:6.1f}")
    (_, short_seconds, short), (_, long_seconds, long) = rows
    memory = long.peak_mib / short.peak_mib
    speed = (long.wall / long_seconds) / (short.wall / short_seconds)
    print(f"long / short: peak memory {memory:.3f} (limit 1.10), real-time factor {speed:.3f} (limit 1.00)")
    print("memory flat: " + ("met" if memory <= 1.10 else "NOT met")
          + "; real-time factor no worse: " + ("met" if speed <= 1.0 else "NOT met"))
    sys.stdout.flush()

    if not args.no_analysis:
        log(f"==> analysing the {long_seconds / 60:.0f}-minute transcript with {args.language_model}")
        wall, peak, result = measure_analysis(args, long.text)
        words = len(long.text.split())
        print(f"analysis of the {long_seconds / 60:.0f}-minute transcript ({words} words, {args.language_model}): "
              f"{wall:.1f} s wall, {peak:.0f} MiB peak")
        print(result.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
