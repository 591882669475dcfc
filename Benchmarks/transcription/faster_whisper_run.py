#!/usr/bin/env python3
"""One faster-whisper transcription, as a process of its own, for bench.py.

Run with the benchmark venv's Python (scripts/bench-deps.sh creates it). Loads the CTranslate2
model folder, transcribes one audio file and prints the transcript on stdout (one line per
segment); timings go to stderr. bench.py measures the whole process (interpreter start, imports,
model load, decoding), like it measures the other tools.
"""
import argparse
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("audio")
    ap.add_argument("--model-dir", required=True, help="folder with model.bin, config.json, ...")
    ap.add_argument("--compute-type", default="int8", help="int8, float32, float16, int8_float32, ...")
    ap.add_argument("--threads", type=int, default=2, help="CTranslate2 cpu_threads")
    ap.add_argument("--beam-size", type=int, default=5)
    ap.add_argument("--best-of", type=int, default=5)
    ap.add_argument("--language", default="en")
    ap.add_argument("--vad", action="store_true", help="enable the Silero VAD filter")
    ap.add_argument("--vad-threshold", type=float, default=0.5)
    ap.add_argument("--vad-min-speech-ms", type=int, default=250)
    ap.add_argument("--vad-min-silence-ms", type=int, default=100)
    ap.add_argument("--vad-speech-pad-ms", type=int, default=30)
    args = ap.parse_args()

    t0 = time.perf_counter()
    from faster_whisper import WhisperModel  # imported here so the import time is reported

    t1 = time.perf_counter()
    model = WhisperModel(
        args.model_dir,
        device="cpu",
        compute_type=args.compute_type,
        cpu_threads=args.threads,
        num_workers=1,
        local_files_only=True,
    )
    t2 = time.perf_counter()
    vad_parameters = None
    if args.vad:
        vad_parameters = {
            "threshold": args.vad_threshold,
            "min_speech_duration_ms": args.vad_min_speech_ms,
            "min_silence_duration_ms": args.vad_min_silence_ms,
            "speech_pad_ms": args.vad_speech_pad_ms,
        }
    segments, _info = model.transcribe(
        args.audio,
        language=args.language,
        beam_size=args.beam_size,
        best_of=args.best_of,
        vad_filter=args.vad,
        vad_parameters=vad_parameters,
    )
    # transcribe() is lazy: decoding happens while the segments are iterated.
    for segment in segments:
        print(segment.text.strip(), flush=True)
    t3 = time.perf_counter()
    print(
        f"faster-whisper {args.compute_type}: import {t1 - t0:.2f} s, load {t2 - t1:.2f} s, "
        f"transcribe {t3 - t2:.2f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
