#!/usr/bin/env python3
"""Torture harness for the voicenotes program: kill -9 at random moments, concurrency, a full
disk and a read-only library, each followed by checks of the library (see README.md here).

Python 3 standard library only. Everything lives under one temporary folder; every child process
is started in its own process group and killed on exit; the only network traffic is to 127.0.0.1.
"""

import argparse
import collections
import atexit
import fcntl
import glob
import http.client
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import wave

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox"
# Speech clips (16 kHz mono 16-bit WAV) whose notes smollm-135m analyses within its token limit
# (about 20 s each here). It never finishes the analysis of LibriVox 0920, of jfk.wav or of the
# Samples (greedy decoding, so every time: "the response reached maximumResponseTokens"), and
# such a note stays failed after retry, so those are left out.
SPEECH_CLIPS = [
    os.path.join(LIBRIVOX, "sense_and_sensibility_01_austen_64kb-0890.wav"),  # 5.3 s
    os.path.join(LIBRIVOX, "sense_and_sensibility_01_austen_64kb-0880.wav"),  # 3.0 s
]
KINDS = ["import", "transcription", "analysis", "record", "vocabulary", "upload"]
COMMAND_TIMEOUT = 600  # seconds; no single program run may take longer
UNCLEAR_MESSAGE = re.compile(
    r"NSCocoaErrorDomain|NSPOSIXErrorDomain|SQLITE_|sqlite3_|[Ee]rror [Dd]omain|\berror \d+\b|\bcode \d+\b"
    r"|Code=\d+|errno|\(\d+\)\s*$|Swift\.|Foundation\.")

# ---------------------------------------------------------------------------------------------
# Child processes


class Children:
    """Every process the harness started, so that none outlives it."""

    def __init__(self):
        self.processes = set()
        self.lock = threading.Lock()

    def add(self, process):
        with self.lock:
            self.processes.add(process)

    def discard(self, process):
        with self.lock:
            self.processes.discard(process)

    def kill_all(self):
        with self.lock:
            processes = list(self.processes)
        for process in processes:
            kill_group(process)


CHILDREN = Children()


def kill_group(process):
    """kill -9 the process and whatever it started (it leads its own process group)."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    CHILDREN.discard(process)


class Running:
    """A program run whose standard error is read line by line, each line with its time."""

    def __init__(self, args, env, preexec_fn=None, stdin=subprocess.DEVNULL):
        self.args = args
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            args, env=env, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, preexec_fn=preexec_fn)
        CHILDREN.add(self.process)
        self.stdout_lines = []
        self.stderr_lines = []  # (seconds since start, line)
        self.changed = threading.Condition()
        self.readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, False), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, True), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, is_stderr):
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self.changed:
                if is_stderr:
                    self.stderr_lines.append((time.monotonic() - self.started, line))
                else:
                    self.stdout_lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for_line(self, pattern, timeout):
        """The time of the first standard-error line matching pattern, or None at the timeout or exit."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for at, line in self.stderr_lines:
                    if regex.search(line):
                        return at
                if self.process.poll() is not None and not any(r.is_alive() for r in self.readers):
                    return None
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.changed.wait(min(remaining, 0.2))

    def kill(self):
        kill_group(self.process)
        for reader in self.readers:
            reader.join(timeout=5)

    def wait(self, timeout=COMMAND_TIMEOUT):
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        for reader in self.readers:
            reader.join(timeout=10)
        CHILDREN.discard(self.process)
        return self.process.returncode

    @property
    def stdout(self):
        return "\n".join(self.stdout_lines)

    @property
    def stderr(self):
        return "\n".join(line for _, line in self.stderr_lines)


# ---------------------------------------------------------------------------------------------
# Audio clips


def read_wav_samples(path):
    """(sample rate, channels, sample width, frames as bytes) of a PCM WAV."""
    with wave.open(path, "rb") as reader:
        return (reader.getframerate(), reader.getnchannels(), reader.getsampwidth(),
                reader.readframes(reader.getnframes()))


def write_wav(path, frames, rate=16000):
    with wave.open(path, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(frames)


class Clips:
    """Unique short clips: speech (LibriVox utterances with a trial-specific tail of silence, so
    no two imports hold the same audio) and quiet tones (whose transcript is empty, so the note
    is done without analysis: cheap notes for the checks that do not need speech)."""

    def __init__(self, folder, models, quick):
        self.folder = folder
        self.quick = quick  # only the quickest clips to analyse
        os.makedirs(folder, exist_ok=True)
        self.speech_sources = []
        for clip in SPEECH_CLIPS:
            candidates = [clip] if os.path.isabs(clip) else [
                os.path.join(REPO, ".deps", clip), os.path.join(os.path.dirname(os.path.abspath(models)), clip)]
            found = [path for path in candidates if os.path.exists(path)]
            if found:
                self.speech_sources.append(found[0])
        if len(self.speech_sources) < 2:
            sys.exit(f"torture: too few speech clips ({self.speech_sources}); install pocketsphinx-en-us's test "
                     f"data ({LIBRIVOX}) and jfk.wav (make deps)")
        self.counter = 0

    def speech(self, rng, label, quick=False, index=None):
        self.counter += 1
        source = rng.choice(self.speech_sources[:2] if quick or self.quick else self.speech_sources)
        if index is not None:
            source = self.speech_sources[index]
        rate, channels, width, frames = read_wav_samples(source)
        assert (rate, channels, width) == (16000, 1, 2), source
        tail = b"\x00\x00" * (160 * (self.counter % 50 + 1))  # 10 ms to 500 ms, unique with the name
        stem = os.path.basename(source).rsplit("-", 1)[-1].split(".")[0].replace("_", "")
        path = os.path.join(self.folder, f"{label}-speech{stem}-{self.counter}.wav")
        write_wav(path, frames + tail)
        return path

    def tone(self, rng, label, seconds=2.0):
        self.counter += 1
        frequency = 300 + rng.random() * 600 + self.counter * 0.01
        count = int(16000 * seconds)
        frames = b"".join(
            struct.pack("<h", int(1600 * math.sin(2 * math.pi * frequency * i / 16000))) for i in range(count))
        path = os.path.join(self.folder, f"{label}-tone-{self.counter}.wav")
        write_wav(path, frames)
        return path


def duration_of(path):
    try:
        rate, channels, width, frames = read_wav_samples(path)
        return len(frames) / (rate * channels * width)
    except Exception:
        return 14.0


# ---------------------------------------------------------------------------------------------
# The library and its checks


class Report:
    def __init__(self):
        self.counts = {}
        self.failures = []  # dicts: where, check, detail, command
        self.messages = []  # (situation, message)

    def add(self, key, amount=1):
        self.counts[key] = self.counts.get(key, 0) + amount

    def fail(self, where, check, detail, command=""):
        self.failures.append({"where": where, "check": check, "detail": detail, "command": command})
        self.add(f"failed check: {check}")
        print(f"    FAIL [{where}] {check}: {detail}" + (f"\n         command: {command}" if command else ""),
              flush=True)

    def message(self, situation, text):
        self.messages.append((situation, text))
        print(f"    message ({situation}): {text!r}", flush=True)


class Harness:
    def __init__(self, options):
        self.options = options
        self.program = os.path.abspath(options.program)
        self.root = tempfile.mkdtemp(prefix="voicenotes-torture-")
        os.chmod(self.root, 0o755)
        self.mounts = []
        self.report = Report()
        self.models = self._alias_models(options.models)
        self.env = dict(os.environ)
        self.env.update({
            "VOICENOTES_MODELS": self.models, "OMP_WAIT_POLICY": "passive", "NO_COLOR": "1",
            "XDG_DATA_HOME": os.path.join(self.root, "xdg-data"), "VOICENOTES_CACHE": os.path.join(self.root, "cache"),
        })
        self.env.pop("VOICENOTES_LIBRARY", None)
        self.env.pop("VOICENOTES_LANGUAGE_MODEL", None)
        self.clips = Clips(os.path.join(self.root, "clips"), options.models, options.quick)
        self.timings = {}
        self.finished_library = None

    # -- setup

    def _alias_models(self, source):
        """`import`, `resume`, `record` and `retry` take no model options and always use the defaults
        (Whisper base-q8, qwen-1.5b); only `serve` takes --speech-model and --language-model. For speed,
        a models folder of our own names the small models with the default names."""
        folder = os.path.join(self.root, "models")
        os.makedirs(folder)
        needed = {"ggml-tiny.en.bin": "ggml-tiny.en.bin", "ggml-base.bin": "ggml-tiny.en.bin",
                  "ggml-base-q8.bin": "ggml-tiny.en.bin",
                  "ggml-silero-vad.bin": "ggml-silero-vad.bin", "smollm-135m.gguf": "smollm-135m.gguf",
                  "qwen-1.5b.gguf": "smollm-135m.gguf"}
        for name, target in needed.items():
            path = os.path.join(source, target)
            if not os.path.exists(path):
                if name == "ggml-silero-vad.bin":
                    continue
                sys.exit(f"torture: {path} is missing (set VOICENOTES_MODELS or --models to an installed models folder)")
            os.symlink(path, os.path.join(folder, name))
        return folder

    def cleanup(self):
        CHILDREN.kill_all()
        for mount in reversed(self.mounts):
            subprocess.run(["umount", "-l", mount], stderr=subprocess.DEVNULL)
        self.mounts = []
        if not self.options.keep:
            shutil.rmtree(self.root, ignore_errors=True)
        else:
            print(f"torture: kept {self.root}")

    def new_library(self, name):
        path = os.path.join(self.root, name)
        os.makedirs(path, exist_ok=True)
        return path

    # -- running the program

    def start(self, args, library=None, env=None, preexec_fn=None):
        full = [self.program] + args + (["--library", library] if library else [])
        return Running(full, env or self.env, preexec_fn=preexec_fn)

    def run(self, args, library=None, env=None, preexec_fn=None, timeout=COMMAND_TIMEOUT):
        running = self.start(args, library, env, preexec_fn)
        try:
            running.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        return running

    def command_text(self, args, library=None):
        return " ".join([self.program] + args + (["--library", library] if library else []))

    # -- reading the library

    def integrity(self, library):
        """PRAGMA integrity_check of notes.sqlite: 'ok', 'absent', or what it said."""
        path = os.path.join(library, "notes.sqlite")
        if not os.path.exists(path):
            return "absent"
        try:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            try:
                rows = connection.execute("PRAGMA integrity_check").fetchall()
            finally:
                connection.close()
        except sqlite3.Error as error:
            return f"sqlite3 could not check it: {error}"
        return "ok" if rows == [("ok",)] else "; ".join(str(row[0]) for row in rows)[:400]

    def list_notes(self, library):
        """The program's `list --json`: (notes, None) or (None, why it failed)."""
        running = self.run(["list", "--json"], library, timeout=120)
        stored = [name for name in ("notes.sqlite", "audio", "vocabulary.json")
                  if os.path.exists(os.path.join(library, name))]
        if running.process.returncode == 1 and "there is no library at" in running.stderr and not stored:
            return [], None  # nothing was ever stored here (a kill before the first write): truly empty
        if running.process.returncode != 0:
            return None, f"exit {running.process.returncode}: {running.stderr.strip()[:300]}"
        try:
            notes = json.loads(running.stdout)
        except ValueError as error:
            return None, f"not JSON ({error}): {running.stdout[:200]!r}"
        return notes, None

    def audio_of(self, library, note_id):
        files = glob.glob(os.path.join(library, "audio", note_id + ".*"))
        return files[0] if len(files) == 1 else (None if not files else files)


# ---------------------------------------------------------------------------------------------
# Kill trials


class Tracker:
    """What the harness knows about one library: each note the program acknowledged (its id and
    the source), and each source it tried to add (acknowledged or not)."""

    def __init__(self):
        self.acknowledged = {}  # note id -> (kind, source path, trial)
        self.attempted = {}  # source file name -> (kind, source path, trial)
        self.vocabulary = None  # the terms as last seen, or None before the first look

    def attempt(self, kind, source, trial):
        self.attempted[os.path.basename(source)] = (kind, source, trial)


def full_id(short, notes):
    matches = [note["id"] for note in notes if note["id"].startswith(short)]
    return matches[0] if len(matches) == 1 else None


def wav_samples_prefix(stored_path, source_path):
    """None when stored is a valid 16 kHz mono 16-bit WAV whose samples begin the source's, else why not."""
    try:
        with open(stored_path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return f"cannot read: {error}"
    if len(data) < 44 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return f"not a RIFF/WAVE file ({len(data)} bytes, starts {data[:12]!r})"
    position, fmt, samples = 12, None, None
    while position + 8 <= len(data):
        chunk, size = data[position:position + 4], struct.unpack("<I", data[position + 4:position + 8])[0]
        body = data[position + 8:position + 8 + size]
        if chunk == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif chunk == b"data":
            if size > len(data) - position - 8:
                return f"data chunk says {size} bytes but the file holds {len(data) - position - 8}"
            samples = body
            break
        position += 8 + size + (size & 1)
    if fmt is None or samples is None:
        return "no fmt or data chunk"
    audio_format, channels, rate, _, _, bits = fmt
    if (audio_format, channels, rate, bits) != (1, 1, 16000, 16):
        return f"format {fmt} is not 16 kHz mono 16-bit PCM"
    _, _, _, source = read_wav_samples(source_path)
    if len(samples) > len(source):
        return f"{len(samples)} bytes of samples, more than the input's {len(source)}"
    count = len(samples) // 2
    stored_values = struct.unpack(f"<{count}h", samples[:count * 2])
    source_values = struct.unpack(f"<{count}h", source[:count * 2])
    for index, (a, b) in enumerate(zip(stored_values, source_values)):
        if abs(a - b) > 2:
            return f"sample {index} is {a}, the input's is {b}: not a prefix of the input"
    return None


class KillTrials:
    def __init__(self, harness):
        self.h = harness
        self.report = harness.report
        self.library = harness.new_library("library")
        self.tracker = Tracker()
        self.retried = set()
        self.strays = set()
        self.server = None

    # -- calibration: how long each operation takes here, for the random kill moments

    def calibrate(self):
        h = self.h
        library = h.new_library("calibration")
        rng = random.Random(0)
        clip = h.clips.speech(random.Random(1), "calibration", quick=True, index=0)
        running = h.start(["import", clip], library)
        running.wait()
        if running.process.returncode != 0:
            sys.exit(f"torture: calibration import failed: {running.stderr[-500:]}")
        saved = running.wait_for_line(r"^saved ", 0) or 0.5
        transcribing = running.wait_for_line(r" transcribing", 0) or saved
        analysing = running.wait_for_line(r" analysing", 0) or transcribing
        total = time.monotonic() - running.started
        vocabulary = h.run(["vocabulary", "add", "Calibration"], library)
        vocabulary_time = time.monotonic() - vocabulary.started
        tone = h.run(["import", h.clips.tone(rng, "calibration")], library)
        tone_time = time.monotonic() - tone.started
        h.timings = {
            "import": total, "saved": saved, "transcription": max(analysing - transcribing, 0.5),
            "analysis": max(total - analysing, 1.0), "vocabulary": vocabulary_time, "tone import": tone_time,
        }
        h.finished_library = library  # a library with a done speech note, for the read-only checks
        print("calibration: " + ", ".join(f"{k} {v:.2f} s" for k, v in h.timings.items()), flush=True)

    # -- helpers

    def pick_clip(self, rng, label, speech_fraction):
        return self.h.clips.speech(rng, label) if rng.random() < speech_fraction else self.h.clips.tone(rng, label)

    def ensure_speech_pending(self, rng, label, trial, states):
        """An unfinished note with speech in one of states, so that resume transcribes or analyses."""
        notes, _ = self.h.list_notes(self.library)
        if notes:
            for note in notes:
                if note["state"] in states and "speech" in note.get("originalFileName", ""):
                    return note["id"]
        clip = self.h.clips.speech(rng, label)
        self.tracker.attempt("import", clip, trial)
        running = self.h.run(["import", "--no-process", clip], self.library)
        if running.process.returncode != 0:
            self.report.fail(f"trial {trial}", "import --no-process works", running.stderr[-300:],
                             self.h.command_text(["import", "--no-process", clip], self.library))
            return None
        notes, _ = self.h.list_notes(self.library)
        note_id = full_id(running.stdout.strip().splitlines()[-1], notes or [])
        if note_id:
            self.tracker.acknowledged[note_id] = ("import", clip, trial)
        return note_id

    def start_server(self):
        running = self.h.start(["serve", "--port", "0", "--speech-model", "tiny.en", "--language-model",
                                "smollm-135m", "--live-model", "tiny.en"], self.library)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with running.changed:
                for line in running.stdout_lines:
                    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
                    if match:
                        return running, int(match.group(1))
                if running.process.poll() is not None:
                    break
                running.changed.wait(0.2)
        running.kill()
        return running, None

    # -- one trial

    def trial(self, number, total, kind):
        h = self.h
        rng = random.Random(f"{h.options.seed}-{number}")
        label = f"t{number}"
        timings = h.timings
        acknowledged = None
        detail = ""
        command = ""
        if kind == "import":
            clip = self.pick_clip(rng, label, h.options.speech_fraction)
            self.tracker.attempt(kind, clip, number)
            if "speech" in clip or "sample" in clip:
                kill_at = rng.uniform(0, timings["import"] * 1.3)
            else:  # a tone is saved and transcribed to nothing: no analysis
                kill_at = rng.uniform(0, timings["tone import"] * 1.1)
            command = h.command_text(["import", clip], self.library)
            running = h.start(["import", clip], self.library)
            self.sleep_until(running, kill_at)
            phase = self.phase_of(running)
            running.kill()
            acknowledged = self.acknowledgement(running, r"^saved .* as note ([0-9a-f]+)")
            detail = f"{os.path.basename(clip)} killed at {kill_at:.2f} s ({phase})"
        elif kind in ("transcription", "analysis"):
            states = ("transcribing",) if kind == "transcription" else ("transcribing", "analyzing")
            pending = self.ensure_speech_pending(rng, label, number, states)
            marker = r" transcribing" if kind == "transcription" else r" analysing"
            window = timings[kind]
            # Transcription trials run without the language model, so that resume transcribes the
            # waiting notes and leaves their analysis for later (an analysis trial or the next resume).
            env = dict(h.env, VOICENOTES_LANGUAGE_MODEL="off") if kind == "transcription" else h.env
            command = ("VOICENOTES_LANGUAGE_MODEL=off " if kind == "transcription" else "") + h.command_text(
                ["resume"], self.library)
            running = h.start(["resume"], self.library, env=env)
            seen = running.wait_for_line(marker, 180)
            kill_after = rng.uniform(0, window * 1.2)
            if seen is None:
                self.report.add(f"{kind}: phase never seen")
                detail = (f"no '{marker.strip()}' line within 180 s ({self.phase_of(running)}; "
                          f"pending note {pending})")
            else:
                self.sleep_until(running, seen + kill_after)
            phase = self.phase_of(running)
            running.kill()
            detail = detail or f"killed {kill_after:.2f} s after '{marker.strip()}' ({phase}; note {pending})"
        elif kind == "record":
            clip = self.pick_clip(rng, label, h.options.speech_fraction)
            self.tracker.attempt(kind, clip, number)
            length = duration_of(clip)
            if rng.random() < 0.75:
                kill_at = rng.uniform(0, length + 1.5)
            else:
                kill_at = length + rng.uniform(0, timings["analysis"] if "speech" in clip else 2)
            args = ["record", "--input", clip, "--live-model", "tiny.en"]
            command = h.command_text(args, self.library)
            running = h.start(args, self.library)
            self.sleep_until(running, kill_at)
            phase = self.phase_of(running)
            running.kill()
            acknowledged = self.acknowledgement(running, r"^recording note ([0-9a-f]+)")
            detail = f"{os.path.basename(clip)} ({length:.1f} s) killed at {kill_at:.2f} s ({phase})"
        elif kind == "vocabulary":
            before = self.vocabulary_terms()
            if before and rng.random() < 0.5:
                terms = rng.sample(sorted(before), min(len(before), rng.randint(1, 3)))
                args = ["vocabulary", "remove"] + terms
            else:
                terms = [f"Term{number}x{i}" for i in range(rng.randint(1, 3))] + [f"Anneliese Hoffmann {number}"]
                args = ["vocabulary", "add"] + terms
            kill_at = rng.uniform(0, timings["vocabulary"] * 1.2)
            command = h.command_text(args, self.library)
            running = h.start(args, self.library)
            self.sleep_until(running, kill_at)
            finished = running.process.poll() is not None
            running.kill()
            if finished and running.process.returncode != 0:
                self.report.fail(f"trial {number}", "a vocabulary change works", running.stderr[-300:], command)
            after = self.vocabulary_terms()
            if before is not None and after is not None:
                changed = set(terms)
                if args[1] == "add":
                    allowed = [before, before | changed]
                else:
                    allowed = [before, before - changed]
                if after not in allowed:
                    self.report.fail(f"trial {number}", "vocabulary change is all or nothing",
                                     f"before {sorted(before)}, {args[1]} {terms}, after {sorted(after)}", command)
            detail = f"{args[1]} {len(terms)} terms killed at {kill_at:.2f} s" + (" (had finished)" if finished else "")
        elif kind == "upload":
            clip = self.pick_clip(rng, label, h.options.speech_fraction)
            self.tracker.attempt(kind, clip, number)
            server, port = self.start_server()
            command = h.command_text(["serve", "--port", "0", "--speech-model", "tiny.en", "--language-model",
                                      "smollm-135m"], self.library) + f"; POST /api/imports?name={os.path.basename(clip)}"
            if port is None:
                self.report.fail(f"trial {number}", "serve starts and prints its address",
                                 server.stderr[-300:], command)
                detail = "server did not start"
            else:
                response = {}
                poster = threading.Thread(target=self.upload, args=(port, clip, response), daemon=True)
                started = time.monotonic()
                poster.start()
                window = 0.5 + (timings["transcription"] + timings["analysis"] if "speech" in clip else 1.5)
                kill_at = rng.uniform(0, window)
                time.sleep(max(0, kill_at))
                phase = self.phase_of(server)
                server.kill()
                poster.join(timeout=15)
                if response.get("status") == 201:
                    acknowledged = response.get("id")
                elif response.get("status") not in (None,):
                    self.report.fail(f"trial {number}", "upload answered 201", f"{response}", command)
                detail = (f"{os.path.basename(clip)} server killed {time.monotonic() - started:.2f} s after the POST "
                          f"began ({phase}; response {response.get('status', 'none')})")
        else:
            raise ValueError(kind)
        killed = not ("had exited" in detail or "had finished" in detail)
        if killed:
            self.report.add(f"kills: {kind}")
            self.report.add("kills")
        else:
            self.report.add(f"kill moments after the exit (no kill): {kind}")
        print(f"[{number}/{total}] {kind}: {detail}", flush=True)
        self.after_kill(number, kind, acknowledged, command)
        return killed

    def upload(self, port, clip, response):
        try:
            with open(clip, "rb") as handle:
                body = handle.read()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("POST", f"/api/imports?name={os.path.basename(clip)}", body=body,
                               headers={"Content-Type": "audio/wav", "Host": f"127.0.0.1:{port}"})
            answer = connection.getresponse()
            text = answer.read().decode("utf-8", "replace")
            response["status"] = answer.status
            if answer.status == 201:
                response["id"] = json.loads(text).get("id")
            else:
                response["body"] = text[:200]
        except Exception as error:  # a killed server: the connection breaks
            response["error"] = f"{type(error).__name__}: {error}"

    def sleep_until(self, running, at):
        while time.monotonic() - running.started < at and running.process.poll() is None:
            time.sleep(min(0.02, max(0, at - (time.monotonic() - running.started))))

    def phase_of(self, running):
        if running.process.poll() is not None:
            return f"had exited with {running.process.returncode}"
        with running.changed:
            lines = [line for _, line in running.stderr_lines]
        return f"last line: {lines[-1][:70]!r}" if lines else "no output yet"

    def acknowledgement(self, running, pattern):
        with running.changed:
            lines = [line for _, line in running.stderr_lines] + running.stdout_lines
        for line in lines:
            match = re.search(pattern, line)
            if match:
                return match.group(1)
        return None

    def vocabulary_terms(self):
        running = self.h.run(["vocabulary", "list", "--json"], self.library, timeout=60)
        if running.process.returncode != 0:
            self.report.fail("vocabulary", "vocabulary list --json works", running.stderr[-300:])
            return None
        try:
            return set(json.loads(running.stdout))
        except ValueError:
            self.report.fail("vocabulary", "vocabulary list --json prints JSON", running.stdout[:200])
            return None

    # -- checks

    def after_kill(self, number, kind, acknowledged_short, command):
        where = f"trial {number} ({kind})"
        verdict = self.h.integrity(self.library)
        if verdict not in ("ok", "absent"):
            self.report.add("corrupt")
            self.report.fail(where, "integrity_check says ok", verdict, command)
        notes, why = self.h.list_notes(self.library)
        if notes is None:
            self.report.add("corrupt")
            self.report.fail(where, "list --json works after a kill", why, command)
            return
        if verdict == "absent" and notes:
            self.report.fail(where, "notes.sqlite exists when list shows notes", f"{len(notes)} notes", command)
        if acknowledged_short:
            note_id = full_id(acknowledged_short, notes)
            if note_id is None:
                self.report.add("lost")
                self.report.fail(where, "an acknowledged note is in the library",
                                 f"note {acknowledged_short} was acknowledged but list does not show it", command)
            else:
                source = self.tracker.attempted.get(os.path.basename(self.latest_attempt_source(number)))
                if source:
                    self.tracker.acknowledged[note_id] = source
        self.check_notes(where, notes, command, final=False)

    def latest_attempt_source(self, number):
        for name, (_, source, trial) in self.tracker.attempted.items():
            if trial == number:
                return source
        return ""

    def check_notes(self, where, notes, command, final):
        by_id = {note["id"]: note for note in notes}
        for note_id, (kind, source, trial) in self.tracker.acknowledged.items():
            if note_id not in by_id:
                self.report.add("lost")
                self.report.fail(where, "every acknowledged note is still there",
                                 f"note {note_id} ({kind}, trial {trial}, {os.path.basename(source)}) is gone", command)
        names = {}
        for note in notes:
            names.setdefault(note.get("originalFileName", ""), []).append(note["id"])
        for name, ids in names.items():
            if len(ids) > 1 and name in self.tracker.attempted:
                self.report.add("duplicates")
                self.report.fail(where, "one note per import", f"{name} has {len(ids)} notes: {ids}", command)
        for note in notes:
            name = note.get("originalFileName", "")
            attempt = self.tracker.attempted.get(name)
            if not attempt:
                continue
            kind, source, trial = attempt
            if note["id"] not in self.tracker.acknowledged:
                self.tracker.acknowledged[note["id"]] = attempt  # saved though killed before it said so
            audio = self.h.audio_of(self.library, note["id"])
            if audio is None:
                if note["state"] == "failed" and not final:
                    continue
                self.report.add("audio changed")
                self.report.fail(where, "a note's audio is in the library",
                                 f"note {note['id']} ({name}, {note['state']}) has no file in audio/", command)
                continue
            if isinstance(audio, list):
                self.report.fail(where, "one audio file per note", f"{note['id']}: {audio}", command)
                continue
            if kind in ("import", "upload"):
                with open(audio, "rb") as a, open(source, "rb") as b:
                    same = a.read() == b.read()
                if not same:
                    self.report.add("audio changed")
                    self.report.fail(where, "stored audio is byte-identical to the source",
                                     f"note {note['id']} ({kind}, trial {trial}): {os.path.getsize(audio)} bytes "
                                     f"vs the source's {os.path.getsize(source)}", command)
            elif kind == "record":
                why = wav_samples_prefix(audio, source)
                if why:
                    self.report.add("audio changed")
                    self.report.fail(where, "recorded WAV is valid and a prefix of the input",
                                     f"note {note['id']} (trial {trial}, state {note['state']}): {why}", command)

    def finish(self, where):
        """resume, then retry every failed note; every note must end done."""
        started = time.monotonic()
        command = self.h.command_text(["resume"], self.library)
        running = self.h.run(["resume"], self.library)
        if running.process.returncode not in (0, 1):
            self.report.fail(where, "resume exits 0 or 1", f"exit {running.process.returncode}: {running.stderr[-300:]}",
                             command)
        notes, why = self.h.list_notes(self.library)
        if notes is None:
            self.report.add("corrupt")
            self.report.fail(where, "list --json works after resume", why, command)
            return
        for note in notes:
            if note["state"] == "failed" and note["id"] not in self.retried:
                self.retried.add(note["id"])  # once: a failure retry cannot fix stays failed (unfinished)
                self.report.add("failures explained" if note.get("error") else "failures unexplained")
                self.report.message(f"{where}: note {note['id'][:8]} failed", note.get("error", "(no error)"))
                if UNCLEAR_MESSAGE.search(note.get("error", "")):
                    self.report.add("unclear messages")
                    self.report.fail(where, "a failed note's message says what happened in words", note["error"])
                retry = self.h.run(["retry", note["id"]], self.library)
                if retry.process.returncode != 0:
                    self.report.fail(where, "retry fixes a failed note", retry.stderr.strip().splitlines()[-1:],
                                     self.h.command_text(["retry", note["id"]], self.library))
        notes, why = self.h.list_notes(self.library)
        unfinished = [n for n in (notes or []) if n["state"] != "done"]
        for note in unfinished:
            self.report.add("unfinished")
            self.report.fail(where, "every note is done after resume (and retry)",
                             f"note {note['id']} ({note.get('originalFileName')}) is {note['state']}"
                             f" {note.get('error', '')}", command)
        verdict = self.h.integrity(self.library)
        if verdict != "ok":
            self.report.add("corrupt")
            self.report.fail(where, "integrity_check says ok after resume", verdict, command)
        self.check_notes(where, notes or [], command, final=True)
        known = {note["id"] for note in notes or []}
        strays = [path for path in sorted(glob.glob(os.path.join(self.library, "audio", "*")))
                  if os.path.basename(path).split(".")[0] not in known and path not in self.strays]
        if strays:
            # An import killed after its copy and before its note leaves the recording alone in
            # audio/ (the source is untouched, the import never said it was saved): doctor --repair
            # must make it a note again, unchanged, and resume must finish that note.
            contents = {path: open(path, "rb").read() for path in strays}
            repair = self.h.run(["doctor", "--repair"], self.library)
            resumed = self.h.run(["resume"], self.library)
            notes, why = self.h.list_notes(self.library)
            adopted = {note.get("originalFileName"): note for note in notes or []}
            for path in strays:
                self.strays.add(path)  # looked at once
                name = os.path.basename(path)
                note = adopted.get(name)
                if note is None:
                    self.report.add("stray audio files")
                    self.report.fail(where, "doctor --repair makes a recording without a note a note again", name,
                                     self.h.command_text(["doctor", "--repair"], self.library)
                                     + f" -> {repair.stdout[-300:]} {repair.stderr[-200:]}")
                    continue
                self.report.add("orphans re-attached by doctor")
                if not os.path.exists(path) or open(path, "rb").read() != contents[path]:
                    self.report.add("audio changed")
                    self.report.fail(where, "doctor --repair leaves the recording unchanged", name, command)
                if note["state"] != "done":
                    self.report.add("unfinished")
                    self.report.fail(where, "an adopted recording's note finishes on resume",
                                     f"{name}: {note['state']} {resumed.stderr[-200:]}", command)
        print(f"  resume: {len(notes or [])} notes, {len(unfinished)} unfinished "
              f"({time.monotonic() - started:.1f} s)", flush=True)

    def run_all(self, kills):
        self.calibrate()
        rng = random.Random(self.h.options.seed)
        kinds = [KINDS[i % len(KINDS)] for i in range(kills)]
        rng.shuffle(kinds)
        # Trials go on until `kills` processes were really killed: a kill moment that came after
        # the process had finished is drawn again for the same kind. Moments are drawn up to 1.3
        # times the calibrated length, so on a fast machine a third or more come late: allow three
        # trials per kill, or a quick run of 8 kills fails by chance (7 killed in 16 trials once).
        pending = collections.deque(kinds)
        killed = 0
        index = 0
        while pending and index < 3 * kills:
            index += 1
            kind = pending.popleft()
            self.report.add("trials")
            if self.trial(index, kills, kind):
                killed += 1
            else:
                pending.appendleft(kind)
            if index % self.h.options.resume_every == 0 or not pending:
                self.finish(f"resume after trial {index}")
        if pending:
            self.finish(f"resume after trial {index}")
            self.report.fail("kills", f"{kills} processes killed", f"{killed} killed in {index} trials")
        notes, _ = self.h.list_notes(self.library)
        self.report.add("notes", len(notes or []))
        for note_id, (kind, _, _) in self.tracker.acknowledged.items():
            self.report.add(f"notes: {kind}")


# ---------------------------------------------------------------------------------------------
# Concurrency


def concurrency_round(h, workers, rng):
    report = h.report
    where = f"concurrency {workers}"
    library = h.new_library(f"concurrent-{workers}")
    shared = (h.clips.tone if h.options.quick else h.clips.speech)(rng, f"c{workers}-shared")
    own = [[h.clips.tone(rng, f"c{workers}w{i}")] for i in range(workers)]
    script = []
    for i in range(workers):
        script.append([["import", shared], ["import"] + own[i], ["list", "--json"],
                       ["vocabulary", "add", f"Worker{i}"], ["resume"], ["list", "--json"]])
    print(f"[{where}] {workers} processes: each imports the same recording plus its own, lists, "
          f"adds a term and resumes", flush=True)
    logs = [[] for _ in range(workers)]
    errors = []

    def work(index):
        for args in script[index]:
            running = h.run(args, library)
            logs[index].append((args, running))
            if running.process.returncode != 0:
                errors.append((index, args, running.process.returncode, running.stderr[-300:]))

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(workers)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=COMMAND_TIMEOUT * 2)
    for index, args, code, stderr in errors:
        report.fail(where, "every command succeeds while others work on the library",
                    f"worker {index}: exit {code}: {stderr}", h.command_text(args, library))
    h.run(["resume"], library)  # whatever a worker's resume left (there should be nothing)
    verdict = h.integrity(library)
    if verdict != "ok":
        report.add("corrupt")
        report.fail(where, "integrity_check says ok", verdict)
    notes, why = h.list_notes(library)
    if notes is None:
        report.add("corrupt")
        report.fail(where, "list --json works", why)
        return
    report.add("notes", len(notes))
    report.add("concurrency rounds")
    names = {}
    for note in notes:
        names.setdefault(note["originalFileName"], []).append(note)
    expected = {os.path.basename(p): p for p in [shared] + [c for clips in own for c in clips]}
    for name, path in expected.items():
        found = names.get(name, [])
        if not found:
            report.add("lost")
            report.fail(where, "every import is in the library", f"{name} has no note")
        elif len(found) > 1:
            report.add("duplicates")
            report.fail(where, "one note per recording", f"{name} has {len(found)} notes: {[n['id'] for n in found]}")
        for note in found:
            if note["state"] != "done":
                report.add("unfinished")
                report.fail(where, "every note is done", f"{note['id']} ({name}) is {note['state']} {note.get('error', '')}")
            audio = h.audio_of(library, note["id"])
            if not isinstance(audio, str) or open(audio, "rb").read() != open(path, "rb").read():
                report.add("audio changed")
                report.fail(where, "stored audio is byte-identical to the source", f"{note['id']} ({name}): {audio}")
    shared_ids = set()
    for index in range(workers):
        args, running = logs[index][0]
        if running.process.returncode == 0 and running.stdout_lines:
            shared_ids.add(running.stdout_lines[0].strip())
    if len(shared_ids) > 1:
        report.fail(where, "every process names the same note for the same recording",
                    f"`import {os.path.basename(shared)}` printed ids {sorted(shared_ids)}",
                    h.command_text(["import", shared], library) + f"  ({workers} at once)")
    # Each step runs once per note: count the progress lines that begin a step, over every process.
    starts, who = {}, {}
    for index in range(workers):
        for args, running in logs[index]:
            for _, line in running.stderr_lines:
                match = re.match(r"^([0-9a-f]{8}) (transcribing 0%|analysing 0%)", line)
                if match:
                    key = (match.group(1), match.group(2).split()[0])
                    starts[key] = starts.get(key, 0) + 1
                    who.setdefault(key, []).append(f"worker {index}: {' '.join(os.path.basename(a) for a in args)}")
    for (short, step), count in sorted(starts.items()):
        if count > 1:
            report.fail(where, "each note is transcribed and analysed once", f"note {short}: {step} began {count} times, in {who[(short, step)]}")
    speech_notes = [n for n in notes if "speech" in n["originalFileName"]]
    for note in speech_notes:
        if (note["id"][:8], "analysing") not in starts and note["state"] == "done":
            report.add(f"{where}: speech note analysed by the final resume")
    terms_run = h.run(["vocabulary", "list", "--json"], library)
    try:
        terms = set(json.loads(terms_run.stdout))
    except ValueError:
        terms = set()
    missing = {f"Worker{i}" for i in range(workers)} - terms
    if missing:
        report.add("lost")
        report.fail(where, "every process's vocabulary term is kept", f"missing {sorted(missing)}")
    print(f"  {len(notes)} notes, {sum(starts.values())} step starts, {time.monotonic() - started:.1f} s", flush=True)


def lock_wait_message(h, rng):
    """While another process holds the library's processing lock, a command that must wait says so."""
    where = "lock wait"
    library = h.new_library("lock-wait")
    h.run(["import", h.clips.tone(rng, "held-first")], library)  # processing takes the lock: its file is there after
    lock_path = os.path.join(library, ".processing.lock")
    if not os.path.exists(lock_path):
        h.report.fail(where, "the library has a processing lock file",
                      f"no {lock_path} after an import: cannot hold the lock the way the program does")
        return
    for args in (["resume"], ["import", h.clips.tone(rng, "held-import")], ["retry"]):
        # a note waiting for work, so that each command has something to wait for the lock for
        waiting = h.run(["import", "--no-process", h.clips.tone(rng, "held-waiting")], library)
        if args == ["retry"]:
            args = ["retry", waiting.stdout.strip().splitlines()[-1] if waiting.stdout.strip() else "?"]
        with open(lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            running = h.start(args, library)
            time.sleep(4)
            said = running.stderr.strip()
            fcntl.flock(handle, fcntl.LOCK_UN)
        running.wait(120)
        h.report.message(f"{args[0]} while another process holds the lock (its first 4 s)", said or "(nothing)")
        if not re.search(r"another (voicenotes )?process|waiting|wait for|busy|\block\b", said, re.I):
            h.report.fail(where, "a process waiting for the library lock says so",
                          f"{args[0]} printed {said!r} in 4 s while another process held the lock",
                          h.command_text(args, library))


# ---------------------------------------------------------------------------------------------
# Disk full


def fsize_limit(limit):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit then fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def check_one_line(h, where, stderr, code, situation, expect_words):
    # Progress lines come first; what counts is the error: one line for each thing that failed,
    # the first of them saying why (a closing "N note(s) could not be finished" may follow).
    lines = [line for line in stderr.strip().splitlines() if line.startswith("voicenotes: error:")]
    summary = re.compile(r"could not be finished|file\(s\) failed|files failed")
    causes = [line for line in lines if not summary.search(line)] or lines
    message = causes[0] if causes else ""
    h.report.message(situation, stderr.strip() or "(nothing)")
    if code == 0:
        h.report.fail(where, "a write that cannot be done exits non-zero", f"exit 0; stderr {stderr.strip()!r}")
        return
    if code < 0:
        h.report.fail(where, "the program fails cleanly, not by a signal", f"killed by signal {-code}")
    if len(causes) != 1:
        h.report.fail(where, "the failure is one line", f"{len(causes)} error lines: {stderr.strip()[-300:]!r}")
    if UNCLEAR_MESSAGE.search(message) or not re.search(expect_words, message, re.I):
        h.report.add("unclear messages")
        h.report.fail(where, "the message says what happened in words", repr(message))


def disk_full(h, rng, stages, tmpfs_ok):
    report = h.report
    for stage in stages:
        for method in (["fsize", "tmpfs"] if tmpfs_ok else ["fsize"]):
            where = f"disk full during {stage} ({method})"
            print(f"[{where}]", flush=True)
            report.add("disk-full checks")
            folder = os.path.join(h.root, f"full-{stage}-{method}")
            os.makedirs(folder)
            if method == "tmpfs":
                result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", folder],
                                        capture_output=True, text=True)
                if result.returncode != 0:
                    report.fail(where, "tmpfs mounts", result.stderr.strip())
                    continue
                h.mounts.append(folder)
            library = os.path.join(folder, "library")
            first = h.clips.tone(rng, f"full-{stage}-{method}-first", seconds=1.0)
            setup = h.run(["import", first], library)
            if setup.process.returncode != 0:
                report.fail(where, "an import into an empty library works", setup.stderr[-300:])
                continue
            if h.options.quick:
                clip = h.clips.tone(rng, f"full-{stage}-{method}", seconds=3.0)
            else:
                clip = h.clips.speech(rng, f"full-{stage}-{method}")
            if stage != "import":
                saved = h.run(["import", "--no-process", clip], library)
                if stage == "analysis":
                    env = dict(h.env, VOICENOTES_LANGUAGE_MODEL="off")
                    h.run(["resume"], library, env=env)
            filler = os.path.join(folder, "filler")
            preexec = None
            if method == "fsize":
                limit = 4096 if stage != "import" else os.path.getsize(clip) // 2
                preexec = fsize_limit(limit)
            else:
                # Import: nothing free. Transcription and analysis: 40 KB free, room for opening the
                # library (its 32 KB -shm) but not for much of what the step writes.
                fill_disk(filler, leave=0 if stage == "import" else 40 * 1024)
            args = ["import", clip] if stage == "import" else ["resume"]
            command = h.command_text(args, library) + (
                f"  (RLIMIT_FSIZE {limit} bytes, SIGXFSZ ignored)" if method == "fsize"
                else f"  (on a 2 MB tmpfs, {'full' if stage == 'import' else '40 KB free'})")
            running = h.run(args, library, preexec_fn=preexec)
            notes_before, _ = h.list_notes(library)
            stuck = [n for n in (notes_before or []) if n["originalFileName"] == os.path.basename(clip)]
            if stuck and stuck[0].get("error"):
                report.message(f"{where}: the note's stored error", stuck[0]["error"])
            if running.process.returncode == 0 and stage != "import" and stuck and stuck[0]["state"] == "done":
                # the file system still had room for what the step wrote (tmpfs reuses the WAL's pages)
                report.add("disk-full checks that did not bite")
                print(f"    note: the step succeeded on the full disk; nothing checked here", flush=True)
            else:
                check_one_line(h, where, running.stderr if stage == "import" else running.stderr,
                               running.process.returncode, where, r"disk|space|full|too large|storage|quota")
            verdict = h.integrity(library)
            if verdict != "ok":  # a full disk can keep SQLite from making its -shm: not corruption yet
                report.add("unreadable while the disk is full")
                report.fail(where, "the library can be checked on a full disk", verdict, command)
            notes, why = h.list_notes(library)
            if notes is None:
                report.add("unreadable while the disk is full")
                report.fail(where, "list --json works on a full disk", why, command)
            else:
                held = [n for n in notes if n["originalFileName"] == os.path.basename(clip)]
                audio_files = [p for p in glob.glob(os.path.join(library, "audio", "*"))
                               if not any(os.path.basename(p).startswith(n["id"]) for n in notes)]
                if audio_files:
                    report.fail(where, "no stray audio files without a note",
                                f"{[os.path.basename(p) for p in audio_files]}", command)
                for note in held:
                    audio = h.audio_of(library, note["id"])
                    if not isinstance(audio, str) or open(audio, "rb").read() != open(clip, "rb").read():
                        report.add("audio changed")
                        report.fail(where, "the recording is stored whole or not at all",
                                    f"note {note['id']} has audio {audio!r} "
                                    f"({os.path.getsize(audio) if isinstance(audio, str) else 0} bytes of "
                                    f"{os.path.getsize(clip)})", command)
                if stage != "import" and not held:
                    report.add("lost")
                    report.fail(where, "the note being processed is still there", "it is gone", command)
            for path in (filler, filler + "-tail", filler + "-last"):
                if os.path.exists(path):
                    os.remove(path)
            again = h.run(["import", clip], library) if stage == "import" else None
            if again is not None and again.process.returncode != 0:
                report.fail(where, "after the disk has room, the import works", again.stderr[-300:])
            h.run(["resume"], library)
            verdict = h.integrity(library)
            if verdict != "ok":
                report.add("corrupt")
                report.fail(where, "integrity_check says ok once the disk has room", verdict, command)
            notes, why = h.list_notes(library)
            if notes is None:
                report.add("corrupt")
                report.fail(where, "list --json works once the disk has room", why, command)
            for note in notes or []:
                if note["state"] == "failed":
                    report.add("failures explained" if note.get("error") else "failures unexplained")
                    report.message(f"{where}: failed note after room", note.get("error", ""))
                    h.run(["retry", note["id"]], library)
            notes, _ = h.list_notes(library)
            held = [n for n in notes or [] if n["originalFileName"] == os.path.basename(clip)]
            if len(held) != 1:
                report.fail(where, "after the disk has room, the recording is one note", f"{len(held)} notes")
            for note in notes or []:
                if note["state"] != "done":
                    report.add("unfinished")
                    report.fail(where, "after the disk has room, every note finishes",
                                f"{note['id']} is {note['state']} {note.get('error', '')}")
            report.add("notes", len(notes or []))
            if method == "tmpfs":
                subprocess.run(["umount", folder])
                h.mounts.remove(folder)


def fill_disk(path, leave=0):
    """Write until the file system is full (unbuffered, so nothing is left to fail at close), then
    give back `leave` bytes."""
    for name, size in ((path, 65536), (path + "-tail", 512), (path + "-last", 1)):
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            while True:
                os.write(descriptor, b"\0" * size)
        except OSError:
            pass
        finally:
            os.close(descriptor)
    if leave:
        os.truncate(path, max(0, os.path.getsize(path) - leave))


# ---------------------------------------------------------------------------------------------
# Read-only library


def readable_libraries(h):
    """A folder holding copies of the program's shared libraries that live outside the system's
    folders (the engines may be under /root, which the unprivileged user cannot enter)."""
    folder = os.path.join(h.root, "engine-libraries")
    os.makedirs(folder, exist_ok=True)
    listing = subprocess.run(["ldd", h.program], capture_output=True, text=True).stdout
    for match in re.finditer(r"=> (/\S+)", listing):
        path = match.group(1)
        if not path.startswith(("/lib", "/usr/", "/opt/swift")):
            shutil.copy(path, os.path.join(folder, os.path.basename(path)))
    for name in os.listdir(folder):
        os.chmod(os.path.join(folder, name), 0o755)
    os.chmod(folder, 0o755)
    return folder


def read_only(h, rng, methods):
    report = h.report
    library = os.path.join(h.root, "read-only")
    if h.finished_library:
        shutil.copytree(h.finished_library, library)
    else:
        os.makedirs(library)
        setup = h.run(["import", h.clips.tone(rng, "ro"), h.clips.speech(rng, "ro", quick=True)], library)
        if setup.process.returncode != 0:
            report.fail("read-only", "setting up a library works", setup.stderr[-300:])
            return
    os.chmod(library, 0o755)
    notes, why = h.list_notes(library)
    if not notes:
        report.fail("read-only", "the library to make read-only lists its notes", why or "no notes")
        return
    note_id = notes[0]["id"]
    word = "sense"
    for note in notes:
        shown = h.run(["show", note["id"], "--json"], library)
        try:
            text = json.loads(shown.stdout).get("transcript", {}).get("text", "")
            words = re.findall(r"[A-Za-z]{4,}", text)
            if words:
                word, note_id = words[0].lower(), note["id"]
                break
        except ValueError:
            pass
    extra = h.clips.tone(rng, "ro-extra")
    for method in methods:
        where = f"read-only ({method})"
        print(f"[{where}]", flush=True)
        report.add("read-only checks")
        target, env, preexec = library, h.env, None
        if method == "bind mount":
            target = os.path.join(h.root, "read-only-view")
            os.makedirs(target, exist_ok=True)
            steps = [["mount", "--bind", library, target], ["mount", "-o", "remount,bind,ro", target]]
            ok = True
            for step in steps:
                result = subprocess.run(step, capture_output=True, text=True)
                if result.returncode != 0:
                    report.fail(where, "a read-only bind mount can be made", result.stderr.strip())
                    ok = False
                    break
                if step[1] == "--bind":
                    h.mounts.append(target)
            if not ok:
                continue
        else:  # an unprivileged user (or, not being root, ourselves): files readable, not writable
            mode_dir, mode_file = (0o755, 0o644) if method == "unprivileged user" else (0o555, 0o444)
            for dirpath, dirnames, filenames in os.walk(library):
                for name in filenames:
                    os.chmod(os.path.join(dirpath, name), mode_file)
                os.chmod(dirpath, mode_dir)
            env = dict(h.env, HOME="/nonexistent")
            preexec = None
            if method == "unprivileged user":
                env["LD_LIBRARY_PATH"] = readable_libraries(h)
        try:
            open(os.path.join(target, "probe"), "w").close()
            if method == "bind mount":
                report.fail(where, "the library really is read-only", "root could write into the bind mount")
                os.remove(os.path.join(target, "probe"))
                continue
        except OSError:
            pass
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if method == "unprivileged user" else []

        def run(args):
            full = prefix + [h.program] + args + ["--library", target]
            running = Running(full, env, preexec_fn=preexec)
            try:
                running.wait(120)
            except subprocess.TimeoutExpired:
                pass
            return running, " ".join(full)

        reads = [["list"], ["list", "--json"], ["show", note_id], ["search", word], ["export", note_id],
                 ["tasks"], ["vocabulary", "list"]]
        for args in reads:
            running, command = run(args)
            if running.process.returncode != 0:
                report.fail(where, "reading a read-only library works",
                            f"{' '.join(args)}: exit {running.process.returncode}: {running.stderr.strip()[:300]!r}",
                            command)
                report.message(f"{where}: {' '.join(args)}", running.stderr.strip())
        writes = [["rename", note_id, "New", "title"], ["vocabulary", "add", "Readonly"], ["import", extra],
                  ["delete", "--yes", note_id], ["resume"]]
        for args in writes:
            running, command = run(args)
            if args == ["resume"]:
                # nothing to do in a finished library: it may succeed, but never crash or change anything
                if running.process.returncode not in (0, 1) or (running.process.returncode == 1 and
                                                                len(running.stderr.strip().splitlines()) != 1):
                    report.fail(where, "resume on a finished read-only library exits cleanly with at most one line",
                                f"exit {running.process.returncode}: {running.stderr.strip()[:300]!r}", command)
                continue
            check_one_line(h, where, running.stderr, running.process.returncode,
                           f"{where}: {' '.join(args[:2])}", r"read-only|read only|permission|not writable|cannot write|can't write")
        after, _ = h.list_notes(library)
        if not after or len(after) != len(notes):
            report.fail(where, "a read-only library is unchanged by refused writes",
                        f"{len(notes)} notes before, {len(after or [])} after")
        if method == "bind mount":
            subprocess.run(["umount", target])
            h.mounts.remove(target)
        if method == "chmod":
            for dirpath, dirnames, filenames in os.walk(library):
                os.chmod(dirpath, 0o755)


# ---------------------------------------------------------------------------------------------
# Libraries that are not what they should be


def odd_libraries(h, rng):
    report = h.report
    where = "library path is a file"
    print(f"[{where}]", flush=True)
    path = os.path.join(h.root, "not-a-folder")
    with open(path, "w") as handle:
        handle.write("not a library\n")
    running = h.run(["list"], path)
    check_one_line(h, where, running.stderr, running.process.returncode, where, r"not a folder|not a directory|is a file")

    where = "0-byte notes.sqlite beside audio"
    print(f"[{where}]", flush=True)
    library = h.new_library("zero-byte")
    clip = h.clips.tone(rng, "zero")
    h.run(["import", "--no-process", clip], library)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(os.path.join(library, "notes.sqlite" + suffix)):
            os.remove(os.path.join(library, "notes.sqlite" + suffix))
    open(os.path.join(library, "notes.sqlite"), "w").close()
    audio = glob.glob(os.path.join(library, "audio", "*"))
    running = h.run(["list", "--json"], library)
    report.message(where, running.stderr.strip() or f"(nothing; exit {running.process.returncode}, "
                   f"stdout {running.stdout.strip()[:60]!r})")
    if running.process.returncode == 0 and not running.stderr.strip():
        report.fail(where, "an emptied database beside stored audio is reported, not silently a new library",
                    f"list exits 0 and prints {running.stdout.strip()[:60]!r} with {len(audio)} audio file(s) "
                    f"in audio/", h.command_text(["list", "--json"], library))


# ---------------------------------------------------------------------------------------------


def tmpfs_works(root):
    probe = os.path.join(root, "tmpfs-probe")
    os.makedirs(probe)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], capture_output=True)
    if result.returncode == 0:
        subprocess.run(["umount", probe])
        return True
    return False


def print_summary(h, started, options):
    counts = h.report.counts
    print("\n== summary ==")
    print(f"seed {options.seed}; {'quick' if options.quick else 'full'}; wall time {time.monotonic() - started:.0f} s")
    keys = ["trials", "kills", "notes", "lost", "audio changed", "unfinished", "corrupt", "duplicates",
            "failures explained", "failures unexplained", "unclear messages", "concurrency rounds",
            "disk-full checks", "read-only checks"]
    for key in keys:
        print(f"  {key:22} {counts.get(key, 0)}")
    for key in sorted(k for k in counts if k not in keys):
        print(f"  {key:40} {counts[key]}")
    if h.report.messages:
        print("messages seen:")
        for situation, text in h.report.messages:
            print(f"  {situation}: {text!r}")
    if h.report.failures:
        print(f"{len(h.report.failures)} failed checks:")
        for failure in h.report.failures:
            print(f"  [{failure['where']}] {failure['check']}: {failure['detail']}")
            if failure["command"]:
                print(f"      {failure['command']}")
    print(f"replay: python3 {os.path.relpath(__file__)} --program {options.program} --seed {options.seed}"
          + (" --quick" if options.quick else f" --kills {options.kills}"))


def main():
    parser = argparse.ArgumentParser(description="kill -9, concurrency, full disk and read-only checks of voicenotes")
    parser.add_argument("--program", required=True, help="the voicenotes executable")
    parser.add_argument("--kills", type=int, default=None, help="kill trials (default 100; 8 with --quick)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (printed; default: from the clock)")
    parser.add_argument("--quick", action="store_true", help="a bounded run for make test (about 2 minutes)")
    parser.add_argument("--resume-every", type=int, default=None, help="resume and check after this many trials")
    parser.add_argument("--speech-fraction", type=float, default=None,
                        help="share of import, record and upload trials that use speech (the rest quiet tones)")
    parser.add_argument("--models", default=os.environ.get("VOICENOTES_MODELS", os.path.join(REPO, ".deps", "models")))
    parser.add_argument("--only", default="", help="comma-separated parts: kills,concurrency,lock,diskfull,readonly,odd")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args()
    if options.seed is None:
        options.seed = int(time.time()) % 100000
    if options.kills is None:
        options.kills = 8 if options.quick else 100
    if options.resume_every is None:
        options.resume_every = 4 if options.quick else 5
    if options.speech_fraction is None:
        options.speech_fraction = 0.0 if options.quick else 0.3
    parts = set(options.only.split(",")) if options.only else {"kills", "concurrency", "diskfull", "readonly", "odd"}
    print(f"torture: seed {options.seed}, {options.kills} kills, program {options.program}", flush=True)
    started = time.monotonic()
    harness = Harness(options)
    atexit.register(harness.cleanup)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *_: sys.exit(130))
    can_mount = tmpfs_works(harness.root)
    print(f"torture: tmpfs and bind mounts {'work' if can_mount else 'do not work'} here; "
          f"disk full by RLIMIT_FSIZE{' and a 2 MB tmpfs' if can_mount else ''}", flush=True)
    rng = random.Random(f"{options.seed}-extra")

    def part(name, action):
        """Runs one part; a fault of the harness itself is reported as a failure and the rest still runs."""
        try:
            action()
        except Exception:
            import traceback
            traceback.print_exc()
            harness.report.fail(name, "the harness runs this part to its end", traceback.format_exc().splitlines()[-1])
        finally:
            CHILDREN.kill_all()

    if os.geteuid() != 0:
        read_only_methods = ["chmod"]
    else:
        read_only_methods = ["bind mount", "unprivileged user"] if can_mount else ["unprivileged user"]
    if "kills" in parts:
        part("kills", lambda: KillTrials(harness).run_all(options.kills))
    if "concurrency" in parts:
        for workers in ([2] if options.quick else [2, 4]):
            part(f"concurrency {workers}", lambda: concurrency_round(harness, workers, rng))
    if "concurrency" in parts or "lock" in parts:
        part("lock wait", lambda: lock_wait_message(harness, rng))
    if "diskfull" in parts:
        part("disk full", lambda: disk_full(
            harness, rng, ["import"] if options.quick else ["import", "transcription", "analysis"],
            can_mount and not options.quick))
    if "readonly" in parts:
        part("read-only", lambda: read_only(harness, rng, read_only_methods[:1] if options.quick else read_only_methods))
    if "odd" in parts:
        part("odd libraries", lambda: odd_libraries(harness, rng))
    print_summary(harness, started, options)
    counts = harness.report.counts
    bad = any(counts.get(key, 0) for key in ("lost", "audio changed", "corrupt", "unfinished", "duplicates"))
    sys.exit(1 if bad or harness.report.failures else 0)


if __name__ == "__main__":
    main()
