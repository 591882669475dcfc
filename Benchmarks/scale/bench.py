#!/usr/bin/env python3
"""Scale benchmark: notes per hour when a library's analysis is shared among llama-servers.

Builds N recordings of real speech (the LibriVox utterances of Debian's pocketsphinx-testdata
and jfk.wav, joined in different orders with pauses), then imports the folder with
`voicenotes import DIR` into a fresh library, once per configuration:

  local        the local whisper.cpp and llama.cpp engines (one note at a time)
  1 server     local transcription, analysis on one llama-server (2 parallel slots)
  2 servers    local transcription, analysis on two llama-servers (2 slots each)

The servers are llama.cpp's own llama-server (built by scripts/bootstrap.sh servers), run on
this machine with the same model file as the local engine. On two cores the servers compete with
the local transcription for the same CPU, so the gain is bounded by the cores: the report says
where the time goes (the sum of each stage's seconds against the wall time). It then times one
analysis request, local against through llama-server, for the HTTP backend's overhead.

Standard library only. Loopback only.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchsupport import die, log  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
SERVERS = ROOT / ".deps" / "servers" / "bin"


def clips() -> list[Path]:
    """The real speech clips the recordings are made of."""
    found = sorted(LIBRIVOX.glob("*.wav")) + [ROOT / ".deps" / "testdata" / "jfk.wav"]
    missing = [p for p in found if not p.exists()]
    if missing or len(found) < 2:
        die("the speech clips are missing; run `make deps` (pocketsphinx-testdata, jfk.wav)")
    return found


def read_samples(path: Path) -> bytes:
    with wave.open(str(path)) as w:
        if w.getframerate() != 16000 or w.getnchannels() != 1 or w.getsampwidth() != 2:
            die(f"{path}: expected 16 kHz mono 16-bit")
        return w.readframes(w.getnframes())


def make_recordings(folder: Path, count: int) -> float:
    """Writes `count` recordings of two or three clips each with pauses; returns the seconds of
    audio in all. The pause differs from one recording to the next, so no two are the same audio
    (the library would import a repeat only once)."""
    pieces = [read_samples(p) for p in clips()]
    total = 0.0
    for index in range(count):
        pause = b"\0\0" * (8000 + 800 * index)
        chosen = [pieces[(index + k * 3) % len(pieces)] for k in range(2 + index % 2)]
        data = pause.join(chosen)
        total += len(data) / 32000
        with wave.open(str(folder / f"memo-{index:02d}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes(data)
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """One llama-server on loopback, stopped on exit."""

    def __init__(self, model: Path, slots: int, context: int) -> None:
        binary = SERVERS / "llama-server"
        if not binary.exists():
            die(f"{binary} is missing; run `make servers`")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        self.process = subprocess.Popen(
            [str(binary), "-m", str(model), "--host", "127.0.0.1", "--port", str(self.port),
             "-t", "2", "-c", str(context * slots), "--parallel", str(slots), "--jinja"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                die(f"llama-server exited with status {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        self.stop()
        die("llama-server did not become ready in 120 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


STAGE = re.compile(r"transcribed in ([0-9.]+) s(?:, analysed in ([0-9.]+) s)?")


def run_import(program: Path, recordings: Path, servers: list[str], model: str, count: int) -> dict:
    """Imports the folder into a fresh library with `servers` for analysis; returns the timings."""
    library = Path(tempfile.mkdtemp(prefix="vn-scale-lib."))
    try:
        for url in servers:
            subprocess.run(
                [str(program), "config", "add-server", "language-model", url, "--library", str(library)],
                check=True, stdout=subprocess.DEVNULL)
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        started = time.monotonic()
        done = subprocess.run(
            [str(program), "import", str(recordings), "--library", str(library)],
            env=env, capture_output=True, text=True)
        wall = time.monotonic() - started
        if done.returncode != 0:
            die(f"import failed ({done.returncode}): {done.stderr.strip().splitlines()[-1:]}")
        transcribing = analysing = 0.0
        finished = 0
        for match in STAGE.finditer(done.stderr):
            finished += 1
            transcribing += float(match.group(1))
            analysing += float(match.group(2) or 0)
        if finished != count:
            die(f"{finished} of {count} notes reported done")
        return {"wall": wall, "transcribing": transcribing, "analysing": analysing}
    finally:
        shutil.rmtree(library, ignore_errors=True)


def one_request(program: Path, recordings: Path, server: str | None, rounds: int) -> float:
    """The median seconds of `voicenotes analyze` on one note, local or through `server`."""
    library = Path(tempfile.mkdtemp(prefix="vn-scale-one."))
    try:
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        first = sorted(recordings.glob("*.wav"))[0]
        out = subprocess.run(
            [str(program), "import", str(first), "--library", str(library), "-q"],
            env=env, capture_output=True, text=True, check=True)
        note = out.stdout.split()[0]
        if server:
            env["VOICENOTES_LANGUAGE_MODEL_SERVER"] = server
        times = []
        for _ in range(rounds):
            started = time.monotonic()
            subprocess.run(
                [str(program), "analyze", note, "--library", str(library), "-q"],
                env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.monotonic() - started)
        return statistics.median(times)
    finally:
        shutil.rmtree(library, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", type=Path, default=ROOT / ".build" / "release" / "voicenotes")
    parser.add_argument("--notes", type=int, default=20)
    parser.add_argument("--model", default="qwen-1.5b", help="the language model (local and on the servers)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of the single request, for its median")
    args = parser.parse_args()
    if not args.program.exists():
        die(f"{args.program} is missing; run `swift build -c release`")
    models = Path(os.environ.get("VOICENOTES_MODELS") or ROOT / ".deps" / "models")
    weights = models / f"{args.model}.gguf"
    if not weights.exists():
        die(f"{weights} is missing; run `voicenotes models install {args.model}`")

    recordings = Path(tempfile.mkdtemp(prefix="vn-scale-audio."))
    try:
        audio = make_recordings(recordings, args.notes)
        log(f"{args.notes} recordings, {audio / 60:.1f} minutes of speech in all")
        rows = []
        for label, count in [("local", 0), ("1 server", 1), ("2 servers", 2)]:
            servers = [LlamaServer(weights, slots=2, context=4096) for _ in range(count)]
            try:
                log(f"importing with {label}...")
                timing = run_import(args.program, recordings, [s.url for s in servers], args.model, args.notes)
            finally:
                for server in servers:
                    server.stop()
            rows.append((label, timing))
        base = rows[0][1]["wall"]
        print(f"\nImporting {args.notes} recordings ({audio / 60:.1f} min of speech), analysis by {args.model}:")
        print(f"{'configuration':<12} {'wall s':>8} {'notes/h':>8} {'vs local':>9} "
              f"{'transcribe s':>13} {'analyse s':>10} {'stage s / wall':>15}")
        for label, t in rows:
            busy = (t["transcribing"] + t["analysing"]) / t["wall"]
            print(f"{label:<12} {t['wall']:8.1f} {args.notes * 3600 / t['wall']:8.0f} {base / t['wall']:8.2f}x "
                  f"{t['transcribing']:13.1f} {t['analysing']:10.1f} {busy:15.2f}")

        server = LlamaServer(weights, slots=1, context=4096)
        try:
            remote = one_request(args.program, recordings, server.url, args.rounds)
        finally:
            server.stop()
        local = one_request(args.program, recordings, None, args.rounds)
        print(f"\nOne analysis (median of {args.rounds}): local {local:.2f} s, through llama-server "
              f"{remote:.2f} s, ratio {remote / local:.2f}")
    finally:
        shutil.rmtree(recordings, ignore_errors=True)


if __name__ == "__main__":
    main()
