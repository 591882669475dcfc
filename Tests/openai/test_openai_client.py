#!/usr/bin/env python3
"""`voicenotes serve`'s OpenAI-compatible endpoints driven by the official `openai` Python client.

Starts `voicenotes serve` on a free loopback port with a temporary library and an API key, then,
through `openai.OpenAI(base_url="http://127.0.0.1:PORT/v1", api_key=KEY)`:
  - models.list(): the installed language and speech models;
  - chat.completions.create: plain, streamed (several chunks whose text joins to the same answer as
    the plain call), with response_format json_schema (required fields, an enum, a pattern, array
    min/max items, all checked here), with tools (a tool call with JSON arguments, the tool's result
    sent back, a final answer), with a forced tool choice;
  - audio.transcriptions.create with jfk.wav in json, text, verbose_json (segments and words), srt
    and vtt;
  - errors: a wrong key, an unknown model.
qwen-0.5b makes a tool call; qwen-1.5b does the whole tool round trip (qwen-0.5b makes the call but
then repeats it instead of answering from the tool's result); smollm-135m does the plumbing, where
the grammar decides the shape.

The client comes from PyPI, pinned with hashes in requirements.txt beside this file, installed by
this script into a venv of its own (default ~/.cache/voicenotes/openai-venv; VOICENOTES_CACHE moves
it), once: the venv is rebuilt only when requirements.txt changes. Everything talks to 127.0.0.1
only and every wait is bounded.

    python3 Tests/openai/test_openai_client.py --program .build/debug/voicenotes
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
REQUIREMENTS = HERE / "requirements.txt"
CACHE = Path(os.environ.get("VOICENOTES_CACHE", Path.home() / ".cache" / "voicenotes"))
VENV = CACHE / "openai-venv"
STAMP = VENV / ".requirements-sha256"
JFK = ROOT / ".deps" / "testdata" / "jfk.wav"
API_KEY = "sk-voicenotes-test-0123456789"
SERVER_START_S = 60.0
REQUEST_S = 300.0
PLUMBING_MODEL = "smollm-135m"
TEXT_MODEL = "qwen-1.5b"
SMALL_MODEL = "qwen-0.5b"
SPEECH_MODEL = "tiny.en"


def info(message: str) -> None:
    print(f"openai-client: {message}", flush=True)


# ------------------------------------------------------------------------------------------------
# The venv


def requirements_hash() -> str:
    return hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()


def venv_python() -> Path:
    return VENV / "bin" / "python"


def venv_ready() -> bool:
    if not (venv_python().exists() and STAMP.exists() and STAMP.read_text().strip() == requirements_hash()):
        return False
    check = subprocess.run([str(venv_python()), "-c", "import openai"], capture_output=True, timeout=60)
    return check.returncode == 0


def ensure_venv() -> None:
    """Creates the venv with the pinned, hash-checked client unless it is already there."""
    if venv_ready():
        return
    import platform
    if sys.version_info[:2] != (3, 11) or platform.machine() != "x86_64":
        raise SystemExit(
            f"openai-client: {REQUIREMENTS} pins CPython 3.11 x86_64 wheels (jiter, pydantic-core), but this is "
            f"Python {platform.python_version()} on {platform.machine()}; add that platform's wheel hashes "
            "(pip download the same versions, sha256sum them) to the file")
    info(f"installing the pinned openai client into {VENV} (once)")
    shutil.rmtree(VENV, ignore_errors=True)
    VENV.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, timeout=300)
    # --require-hashes: every package (the client and all it pulls in) must match its pinned
    # sha256; --no-deps: nothing beyond the list is installed; wheels only, nothing is built.
    subprocess.run(
        [str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--only-binary", ":all:", "--require-hashes", "-r", str(REQUIREMENTS)],
        check=True, timeout=600)
    STAMP.write_text(requirements_hash() + "\n")
    if not venv_ready():
        raise SystemExit(f"openai-client: the new venv at {VENV} cannot import openai")


# ------------------------------------------------------------------------------------------------
# The server


class Server:
    """`voicenotes serve` on a free loopback port over a temporary library."""

    def __init__(self, program: Path, library: Path, log: Path):
        env = dict(os.environ)
        env.setdefault("VOICENOTES_MODELS", str(ROOT / ".deps" / "models"))
        env.setdefault("OMP_WAIT_POLICY", "passive")
        self.log_file = open(log, "w")
        self.proc = subprocess.Popen(
            [str(program), "serve", "--port", "0", "--host", "127.0.0.1", "--json", "--quiet",
             "--api-key", API_KEY, "--library", str(library)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log_file, env=env, text=True,
            start_new_session=True)
        self.port: int | None = None
        ready = threading.Event()

        def read_first_line() -> None:
            assert self.proc.stdout is not None
            line = self.proc.stdout.readline()
            try:
                self.port = int(json.loads(line)["port"])
            except (ValueError, KeyError, TypeError):
                pass
            ready.set()
            for _ in self.proc.stdout:  # keep the pipe drained
                pass

        threading.Thread(target=read_first_line, daemon=True).start()
        if not ready.wait(SERVER_START_S) or self.port is None:
            self.stop()
            raise SystemExit(f"openai-client: voicenotes serve did not print its address; see {log}")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log_file.close()


# ------------------------------------------------------------------------------------------------
# Checks


class Failure(Exception):
    pass


def expect(condition: Any, message: str) -> None:
    if not condition:
        raise Failure(message)


def check_schema(value: Any, schema: dict, path: str = "$") -> None:
    """The subset of JSON Schema the tests use: type, required, enum, pattern, min/maxItems, items,
    minimum/maximum, additionalProperties false."""
    kind = schema.get("type")
    if kind == "object":
        expect(isinstance(value, dict), f"{path} is not an object: {value!r}")
        for key in schema.get("required", []):
            expect(key in value, f"{path} lacks the required {key!r}: {value!r}")
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            extra = set(value) - set(properties)
            expect(not extra, f"{path} has properties outside the schema: {extra}")
        for key, sub in properties.items():
            if key in value:
                check_schema(value[key], sub, f"{path}.{key}")
    elif kind == "array":
        expect(isinstance(value, list), f"{path} is not an array: {value!r}")
        expect(len(value) >= schema.get("minItems", 0), f"{path} has fewer than minItems: {value!r}")
        expect(len(value) <= schema.get("maxItems", 1 << 30), f"{path} has more than maxItems: {value!r}")
        for index, item in enumerate(value):
            check_schema(item, schema.get("items", {}), f"{path}[{index}]")
    elif kind == "string":
        expect(isinstance(value, str), f"{path} is not a string: {value!r}")
        if "pattern" in schema:
            expect(re.search(schema["pattern"], value), f"{path} {value!r} does not match {schema['pattern']}")
    elif kind == "integer":
        expect(isinstance(value, int) and not isinstance(value, bool), f"{path} is not an integer: {value!r}")
        expect(schema.get("minimum", -1e18) <= value <= schema.get("maximum", 1e18), f"{path} out of range: {value}")
    if "enum" in schema:
        expect(value in schema["enum"], f"{path} {value!r} is not one of {schema['enum']}")


def cue_times(text: str, separator: str) -> list[tuple[float, float]]:
    """The (start, end) of every cue of an SRT (`,`) or WebVTT (`.`) file."""
    pattern = re.compile(
        rf"(\d+):(\d\d):(\d\d){re.escape(separator)}(\d\d\d) --> (\d+):(\d\d):(\d\d){re.escape(separator)}(\d\d\d)")
    times = []
    for match in pattern.finditer(text):
        g = [int(x) for x in match.groups()]
        times.append((g[0] * 3600 + g[1] * 60 + g[2] + g[3] / 1000, g[4] * 3600 + g[5] * 60 + g[6] + g[7] / 1000))
    return times


def check_cues(text: str, separator: str, what: str) -> None:
    times = cue_times(text, separator)
    expect(times, f"{what} has no cues: {text[:200]!r}")
    for start, end in times:
        expect(end >= start, f"{what}: a cue ends before it starts: {start} --> {end}")
    starts = [start for start, _ in times]
    expect(starts == sorted(starts), f"{what}: cue times do not increase: {starts}")
    expect(times[-1][1] <= 12.0, f"{what}: the last cue ends after the 11 s recording: {times[-1]}")


# ------------------------------------------------------------------------------------------------
# Scenarios (run inside the venv, where openai imports)


def run_scenarios(base_url: str) -> tuple[int, int]:
    import openai

    # Loopback only, whatever proxy the environment names.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        os.environ.pop(name, None)
    os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    client = openai.OpenAI(base_url=base_url, api_key=API_KEY, timeout=REQUEST_S, max_retries=0)
    passed = failed = 0

    def scenario(name: str, body: Callable[[], None]) -> None:
        nonlocal passed, failed
        started = time.monotonic()
        try:
            body()
        except Exception as error:  # noqa: BLE001 (every failure is reported, then the next runs)
            failed += 1
            info(f"FAIL {name} ({time.monotonic() - started:.1f} s): {type(error).__name__}: {error}")
        else:
            passed += 1
            info(f"ok   {name} ({time.monotonic() - started:.1f} s)")

    def models() -> None:
        listed = client.models.list()
        ids = {model.id for model in listed.data}
        for wanted in (PLUMBING_MODEL, SMALL_MODEL, TEXT_MODEL, SPEECH_MODEL):
            expect(wanted in ids, f"{wanted} missing from models.list(): {sorted(ids)}")
        for model in listed.data:
            expect(model.object == "model" and model.owned_by == "voicenotes" and model.created > 0, f"{model}")

    hello = [
        {"role": "system", "content": "You are a friendly assistant. Answer in one short sentence."},
        {"role": "user", "content": "Say hello to Ada."},
    ]

    plain_answer: dict[str, str] = {}

    def plain() -> None:
        reply = client.chat.completions.create(
            model=PLUMBING_MODEL, messages=hello, max_tokens=24, temperature=0, seed=7)
        choice = reply.choices[0]
        expect(choice.message.role == "assistant", f"role {choice.message.role}")
        expect(choice.message.content and choice.message.content.strip(), f"empty answer: {reply}")
        expect(choice.finish_reason in ("stop", "length"), f"finish_reason {choice.finish_reason}")
        expect(reply.usage and reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0, f"{reply.usage}")
        expect(reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens, f"{reply.usage}")
        plain_answer["text"] = choice.message.content

    def streamed() -> None:
        stream = client.chat.completions.create(
            model=PLUMBING_MODEL, messages=hello, max_tokens=24, temperature=0, seed=7, stream=True,
            stream_options={"include_usage": True})
        pieces: list[str] = []
        finish = []
        usage = None
        for chunk in stream:
            if chunk.usage:
                usage = chunk.usage
            for choice in chunk.choices:
                if choice.delta.content:
                    pieces.append(choice.delta.content)
                if choice.finish_reason:
                    finish.append(choice.finish_reason)
        text = "".join(pieces)
        expect(len(pieces) >= 3, f"only {len(pieces)} chunks with text: {pieces}")
        expect(text.strip(), "the streamed answer is empty")
        expect(finish in (["stop"], ["length"]), f"finish reasons {finish}")
        expect(usage and usage.completion_tokens > 0, f"usage {usage}")
        if "text" in plain_answer:
            expect(text == plain_answer["text"], f"streamed {text!r} != plain {plain_answer['text']!r}")

    def json_schema() -> None:
        schema = {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "color", "tags", "age"],
            "properties": {
                "name": {"type": "string", "pattern": "^[A-Z][a-z]{2,9}$"},
                "color": {"type": "string", "enum": ["red", "green", "blue"]},
                "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]{3,12}$"},
                         "minItems": 2, "maxItems": 3},
                "age": {"type": "integer", "minimum": 1, "maximum": 120},
            },
        }
        reply = client.chat.completions.create(
            model=PLUMBING_MODEL, max_tokens=120, temperature=0,
            messages=[{"role": "user", "content": "Invent a person: a name, a favourite color, tags, an age."}],
            response_format={"type": "json_schema",
                             "json_schema": {"name": "person", "schema": schema, "strict": True}})
        content = reply.choices[0].message.content or ""
        expect(reply.choices[0].finish_reason == "stop", f"cut off: {reply.choices[0].finish_reason} {content!r}")
        check_schema(json.loads(content), schema)

    weather_tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "The city's name, such as Paris"}},
                "required": ["city"],
            },
        },
    }

    def tool_call(model: str) -> tuple[list[dict], Any]:
        messages: list[dict] = [
            {"role": "system", "content": "You answer questions about the weather in one sentence. "
                                          "Use the get_weather tool when you need the weather."},
            {"role": "user", "content": "What is the weather in Paris right now?"},
        ]
        reply = client.chat.completions.create(
            model=model, messages=messages, tools=[weather_tool], tool_choice="auto", temperature=0,
            max_tokens=120)
        choice = reply.choices[0]
        expect(choice.finish_reason == "tool_calls", f"finish_reason {choice.finish_reason}: {choice.message}")
        calls = choice.message.tool_calls or []
        expect(len(calls) == 1 and calls[0].function.name == "get_weather", f"tool calls {calls}")
        arguments = json.loads(calls[0].function.arguments)
        expect(isinstance(arguments, dict) and isinstance(arguments.get("city"), str), f"arguments {arguments}")
        expect("paris" in arguments["city"].lower(), f"arguments {arguments}")
        return messages, calls

    def small_tool_call() -> None:
        tool_call(SMALL_MODEL)

    def tools() -> None:
        messages, calls = tool_call(TEXT_MODEL)
        # The client runs the tool (here: a fixed answer) and sends its output back.
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": calls[0].id, "type": "function",
             "function": {"name": "get_weather", "arguments": calls[0].function.arguments}}]})
        messages.append({"role": "tool", "tool_call_id": calls[0].id, "content": "18 degrees Celsius and sunny"})
        final = client.chat.completions.create(
            model=TEXT_MODEL, messages=messages, tools=[weather_tool], temperature=0, max_tokens=80)
        answer = final.choices[0]
        expect(answer.finish_reason == "stop", f"finish_reason {answer.finish_reason}: {answer.message}")
        expect(not answer.message.tool_calls, f"called a tool again: {answer.message.tool_calls}")
        text = (answer.message.content or "").strip()
        expect(text and not text.startswith("{"), f"no answer in words: {text!r}")
        expect("18" in text, f"the answer does not use the tool's result: {text!r}")
        info(f"     final answer: {answer.message.content.strip()[:120]!r}")

    def forced_tool() -> None:
        reply = client.chat.completions.create(
            model=PLUMBING_MODEL, messages=[{"role": "user", "content": "Hello!"}], tools=[weather_tool],
            tool_choice={"type": "function", "function": {"name": "get_weather"}}, temperature=0, max_tokens=60)
        choice = reply.choices[0]
        expect(choice.finish_reason == "tool_calls" and choice.message.tool_calls, f"{choice}")
        arguments = json.loads(choice.message.tool_calls[0].function.arguments)
        expect(isinstance(arguments.get("city"), str), f"arguments {arguments}")

    def transcription(format_name: str) -> Callable[[], None]:
        def body() -> None:
            extra: dict[str, Any] = {}
            if format_name == "verbose_json":
                extra["timestamp_granularities"] = ["word", "segment"]
            if format_name == "text":
                extra["prompt"] = "President Kennedy's inaugural address: fellow Americans, your country."
            with open(JFK, "rb") as audio:
                result = client.audio.transcriptions.create(
                    file=audio, model="whisper-1" if format_name == "json" else SPEECH_MODEL,
                    response_format=format_name, language="en", **extra)
            text = result if isinstance(result, str) else result.text
            if format_name in ("json", "text", "verbose_json"):
                expect("ask not what your country" in text.lower(), f"{format_name}: {text!r}")
            if format_name == "verbose_json":
                expect(result.language == "english", f"language {result.language}")
                expect(10 <= result.duration <= 12, f"duration {result.duration}")
                segments = result.segments or []
                expect(segments, "no segments")
                starts = [segment.start for segment in segments]
                expect(starts == sorted(starts), f"segment starts {starts}")
                expect(all(segment.end >= segment.start for segment in segments), "a segment ends before it starts")
                words = result.words or []
                expect(len(words) >= 15, f"{len(words)} words")
                expect(all(w.end >= w.start for w in words), "a word ends before it starts")
            elif format_name in ("srt", "vtt"):
                expect(isinstance(result, str), f"{format_name} is not text: {type(result)}")
                if format_name == "vtt":
                    expect(result.startswith("WEBVTT"), f"vtt header: {result[:40]!r}")
                check_cues(result, "," if format_name == "srt" else ".", format_name)
                expect("ask not what your country" in result.lower(), f"{format_name}: {result!r}")
        return body

    def errors() -> None:
        wrong = openai.OpenAI(base_url=base_url, api_key="sk-wrong-key-000", timeout=30, max_retries=0)
        try:
            wrong.models.list()
        except openai.AuthenticationError as error:
            expect(error.status_code == 401, f"status {error.status_code}")
        else:
            raise Failure("a wrong API key was accepted")
        try:
            client.chat.completions.create(model="gpt-4o", messages=hello)
        except openai.NotFoundError as error:
            body = error.body if isinstance(error.body, dict) else {}
            expect(body.get("code") == "model_not_found", f"error body {error.body}")
            expect(PLUMBING_MODEL in str(body.get("message")), f"the message names no installed model: {body}")
        else:
            raise Failure("an unknown model was accepted")

    scenario("models.list", models)
    scenario("chat plain", plain)
    scenario("chat streamed", streamed)
    scenario("chat response_format json_schema", json_schema)
    scenario(f"chat tools: {SMALL_MODEL} calls the tool with JSON arguments", small_tool_call)
    scenario(f"chat tools: a call, its result, an answer ({TEXT_MODEL})", tools)
    scenario("chat tool_choice naming a function", forced_tool)
    for format_name in ("json", "text", "verbose_json", "srt", "vtt"):
        scenario(f"audio.transcriptions {format_name}", transcription(format_name))
    scenario("errors: wrong key, unknown model", errors)
    return passed, failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", type=Path, default=ROOT / ".build" / "debug" / "voicenotes")
    parser.add_argument("--in-venv", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.in_venv:
        ensure_venv()
        command = [str(venv_python()), str(Path(__file__).resolve()), "--in-venv", "--program", str(args.program)]
        return subprocess.run(command, timeout=3600).returncode

    started = time.monotonic()
    program = args.program.resolve()
    expect(program.exists(), f"{program} is missing: build it with swift build")
    expect(JFK.exists(), f"{JFK} is missing: run make deps")
    folder = Path(tempfile.mkdtemp(prefix="voicenotes-openai-"))
    log = folder / "serve.log"
    server = Server(program, folder / "library", log)
    try:
        info(f"voicenotes serve at {server.base_url} (log {log})")
        passed, failed = run_scenarios(server.base_url)
    finally:
        server.stop()
    if failed:
        info(f"server log kept in {log}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    info(f"took {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
