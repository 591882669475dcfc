#!/usr/bin/env python3
"""Language-model benchmark: VoiceNotes' LanguageModels against llama.cpp's own tools.

Speed: prompt processing of a 512-token prompt and generation of 128 tokens after it, measured
by our `LanguageModelBenchmark speed` (a streamed response from a fresh session), by llama.cpp's
`llama-bench` (pp512, and tg128 at depth 512) and by llama.cpp's `llama-completion` (the same
rendered prompt, 128 greedy tokens), on the same GGUF file, with the same engine build, the same
CPU flags and 2 threads. Runs alternate round-robin; the table gives medians and the ratio of
ours to llama-bench (target >= 0.95).

Then our API's own costs, which have no llama.cpp counterpart: the grammar of a @Generable type
(tokens/s with and without it), `session.prewarm()` (time to the first snapshot without and with
it), and `includeSchemaInPrompt` (prompt tokens and latency with and without the schema).

Standard library only. See README.md beside this file.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchsupport import CLOCK_TICKS, cpu_busy, die, log, proc_stat  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_CACHE = Path(
    os.environ.get("VOICENOTES_BENCH_CACHE")
    or Path(os.environ.get("VOICENOTES_CACHE") or Path.home() / ".cache" / "voicenotes") / "bench"
)
ENGINES = ROOT / ".deps" / "engines"
PRODUCT = "LanguageModelBenchmark"

ALL_TOOLS = ["ours", "llama-bench", "llama-completion"]
TOOL_LABELS = {
    "ours": "LanguageModels (ours)",
    "llama-bench": "llama.cpp llama-bench",
    "llama-completion": "llama.cpp llama-completion",
}
TARGET_RATIO = 0.95

# Processes whose CPU use would distort a timing: builds, tests, the apps.
HEAVY = "swift-build|swift-frontend|xctest|swift-test|TripPlanner|voicenotes"
QUIET_POLL_S = 20
QUIET_MAX_S = 15 * 60
# A run during which other processes used more CPU time than this (plus 2% of its wall time) is
# flagged as disturbed.
NOISE_CPU_S = 1.0





def out(msg: str = "") -> None:
    print(msg, flush=True)




# ---------------------------------------------------------------------------------------------
# Machine load






def own_lineage() -> set[int]:
    """This process and its ancestors (e.g. `make bench`), which never count as heavy."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def heavy_processes() -> list[str]:
    """Other processes matching HEAVY, as "pid command" lines."""
    try:
        r = subprocess.run(["pgrep", "-af", HEAVY], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return []
    mine = own_lineage()
    found = []
    for line in r.stdout.splitlines():
        pid, _, cmd = line.partition(" ")
        if pid.isdigit() and int(pid) not in mine:
            found.append(f"{pid} {cmd[:100]}")
    return found


@dataclass
class Quiet:
    waited: float = 0.0
    busy: list[str] = field(default_factory=list)  # still running when we gave up waiting


WAIT_FOR_QUIET = True


def wait_for_quiet(what: str) -> Quiet:
    """Waits (checking every 20 s, at most 15 min) until no build, test or app process runs."""
    if not WAIT_FOR_QUIET:
        busy = heavy_processes()
        if busy:
            log(f"bench: not waiting (--no-wait) although these run: " + "; ".join(busy))
        return Quiet(busy=busy)
    start = time.monotonic()
    announced = False
    while True:
        busy = heavy_processes()
        waited = time.monotonic() - start
        if not busy:
            if announced:
                log(f"bench: quiet after {waited:.0f} s; {what}")
            return Quiet(waited=waited)
        if waited >= QUIET_MAX_S:
            log(f"bench: still busy after {QUIET_MAX_S // 60} min; {what} anyway (marked disturbed): "
                + "; ".join(busy))
            return Quiet(waited=waited, busy=busy)
        if not announced:
            log(f"bench: waiting for other heavy processes before {what}: " + "; ".join(busy))
            announced = True
        time.sleep(QUIET_POLL_S)


# ---------------------------------------------------------------------------------------------
# Running processes


class RunFailed(Exception):
    pass


@dataclass
class Proc:
    stdout: str
    stderr: str
    wall: float
    others_cpu: float  # CPU seconds other processes used meanwhile
    heavy_after: list[str]

    def disturbed(self) -> bool:
        return self.others_cpu > NOISE_CPU_S + 0.02 * self.wall or bool(self.heavy_after)


def engine_env(args) -> dict[str, str]:
    env = dict(os.environ)
    env["OMP_WAIT_POLICY"] = "passive"  # spinning OpenMP threads wreck timings on 2 cores
    env["VOICENOTES_MODELS"] = str(args.models)
    env["VOICENOTES_THREADS"] = str(args.threads)
    return env


def run(argv: list[str], env: dict[str, str], timeout: float) -> Proc:
    """Runs one process to completion; wall time, and CPU time used by everything else."""
    cpu_before = children_cpu()
    before = proc_stat()
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        stdout, stderr = proc.communicate()
    finally:
        timer.cancel()
    wall = time.perf_counter() - start
    after = proc_stat()
    if timed_out.is_set():
        raise RunFailed(f"timed out after {timeout:.0f} s")
    # The child's CPU time, its own children's included (all reaped by now).
    usage = children_cpu() - cpu_before
    stdout_text = stdout.decode("utf-8", "replace")
    stderr_text = stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join(stderr_text.strip().splitlines()[-15:])
        raise RunFailed(f"exit status {proc.returncode}; end of its stderr:\n{tail}")
    others = 0.0
    if before and after:
        busy = (after[0] - after[1]) - (before[0] - before[1])
        others = max(0.0, busy / CLOCK_TICKS - usage)
    return Proc(stdout_text, stderr_text, wall, others, heavy_processes())


def children_cpu() -> float:
    """CPU seconds used by all reaped child processes so far."""
    t = os.times()
    return t.children_user + t.children_system


def last_json(text: str, what: str) -> dict:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                break
    raise RunFailed(f"{what} printed no JSON line")


# ---------------------------------------------------------------------------------------------
# Setup


def build_ours(args) -> None:
    """`swift build -c release --product LanguageModelBenchmark` (incremental: quick when current)."""
    binary = Path(args.binary)
    env = dict(os.environ)
    cmd = ["swift", "build", "-c", "release", "--product", PRODUCT]
    log("==> building our side: " + " ".join(cmd))
    r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        tail = "\n".join(r.stdout.strip().splitlines()[-20:])
        if binary.is_file():
            log(f"bench: warning: the build failed; using the existing {binary}:\n{tail}")
        else:
            die(f"the build failed:\n{tail}")


@dataclass
class Tool:
    key: str
    label: str
    problem: str | None = None


def check_tools(args, keys: list[str]) -> list[Tool]:
    tools = []
    for key in keys:
        t = Tool(key, TOOL_LABELS[key])
        if key == "ours":
            if not os.access(args.binary, os.X_OK):
                t.problem = f"{args.binary} not found: swift build -c release --product {PRODUCT}"
        else:
            binary = Path(args.llama_tools) / key
            if not os.access(binary, os.X_OK):
                t.problem = f"{binary} not found: run scripts/bench-deps.sh"
        tools.append(t)
    return tools


# ---------------------------------------------------------------------------------------------
# Speed


@dataclass
class Speed:
    pp: float  # prompt tokens per second
    tg: float  # generated tokens per second
    wall: float
    others_cpu: float
    disturbed: bool
    detail: dict


def speed_ours(args) -> Speed:
    p = run([args.binary, "speed", "--model", args.model, "--prompt-tokens", str(args.prompt_tokens),
             "--generate", str(args.generate)], engine_env(args), args.timeout)
    j = last_json(p.stdout, "LanguageModelBenchmark speed")
    if j["generated_snapshots"] < args.generate:
        log(f"bench: warning: ours generated {j['generated_snapshots']} of {args.generate} tokens "
            "(the model ended its answer early)")
    return Speed(j["prompt_tokens_per_second"], j["generation_tokens_per_second"], p.wall, p.others_cpu,
                 p.disturbed(), j)


def speed_llama_bench(args) -> Speed:
    binary = str(Path(args.llama_tools) / "llama-bench")
    common = ["-m", str(args.gguf), "-t", str(args.threads), "-r", "1", "-o", "jsonl"]
    # Two processes: pp512 on an empty context, then tg128 after 512 tokens of context (where our
    # generation runs: after its prompt). Each does llama-bench's own warm-up run first.
    pp = run([binary, *common, "-p", str(args.prompt_tokens), "-n", "0"], engine_env(args), args.timeout)
    tg = run([binary, *common, "-p", "0", "-n", str(args.generate), "-d", str(args.prompt_tokens)],
             engine_env(args), args.timeout)
    jp, jt = last_json(pp.stdout, "llama-bench"), last_json(tg.stdout, "llama-bench")
    return Speed(jp["avg_ts"], jt["avg_ts"], pp.wall + tg.wall, pp.others_cpu + tg.others_cpu,
                 pp.disturbed() or tg.disturbed(),
                 {"pp": jp, "tg": jt, "flash_attn": jp.get("flash_attn"), "n_batch": jp.get("n_batch"),
                  "n_ubatch": jp.get("n_ubatch")})


def completion_perf(stderr: str) -> dict:
    """llama-completion's own timings (common_perf_print): prompt evaluation, then generation as
    token evaluations plus sampling (the sampler chain, and the grammar when there is one)."""
    def grab(pattern: str) -> re.Match:
        m = re.search(pattern, stderr)
        if not m:
            raise RunFailed("llama-completion printed no timings")
        return m
    sampling = grab(r"sampling time =\s*([\d.]+) ms")
    prompt = grab(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
    evals = grab(r"(?<!prompt )eval time =\s*([\d.]+) ms /\s*(\d+) runs")
    prompt_s, prompt_tokens = float(prompt.group(1)) / 1e3, int(prompt.group(2))
    gen_s = (float(evals.group(1)) + float(sampling.group(1))) / 1e3
    runs = int(evals.group(2))
    return {"prompt_tokens": prompt_tokens, "prompt_s": prompt_s, "pp": prompt_tokens / prompt_s,
            "generated": runs, "generation_s": gen_s, "tg": runs / gen_s if gen_s > 0 else 0.0}


def completion_argv(args, prompt: str, tokens: int) -> list[str]:
    """llama-completion on a rendered prompt as raw text, greedy (top-k 1), with our engine's
    context and batch sizes."""
    return [str(Path(args.llama_tools) / "llama-completion"), "-m", str(args.gguf), "-t", str(args.threads),
            "-c", "4096", "-b", "512", "-ub", "512", "-p", prompt, "-n", str(tokens), "-no-cnv",
            "--samplers", "top_k", "--top-k", "1", "--no-display-prompt"]


def speed_llama_completion(args, prompt: str) -> Speed:
    p = run(completion_argv(args, prompt, args.generate) + ["--ignore-eos"], engine_env(args), args.timeout)
    perf = completion_perf(p.stderr)
    return Speed(perf["pp"], perf["tg"], p.wall, p.others_cpu, p.disturbed(), perf)


def rendered_prompt(args) -> tuple[str, int]:
    p = run([args.binary, "speed", "--print-prompt", "--model", args.model,
             "--prompt-tokens", str(args.prompt_tokens)], engine_env(args), args.timeout)
    j = last_json(p.stdout, "LanguageModelBenchmark speed --print-prompt")
    return j["rendered_prompt"], j["prompt_tokens"]


def grammar_reference(args, disturbed: list[str]) -> dict:
    """llama.cpp's own cost for the same grammar: llama-completion generates the analysis from our
    rendered prompt as free text and under `--json-schema` (our type's JSON Schema, which
    llama.cpp converts to a grammar itself), alternating, `--runs` times each."""
    p = run([args.binary, "grammar", "--print-prompt", "--model", args.model], engine_env(args), args.timeout)
    j = last_json(p.stdout, f"{PRODUCT} grammar --print-prompt")
    runs: dict[str, list[dict]] = {"free": [], "guided": []}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(j["json_schema"])
        schema = f.name
    try:
        for rnd in range(args.runs):
            for mode in (["free", "guided"] if rnd % 2 == 0 else ["guided", "free"]):
                quiet = wait_for_quiet(f"grammar reference ({mode})")
                argv = completion_argv(args, j["rendered_prompt"], 700)
                if mode == "guided":
                    argv += ["--json-schema-file", schema]
                r = run(argv, engine_env(args), args.timeout)
                perf = completion_perf(r.stderr)
                perf["text"] = r.stdout
                runs[mode].append(perf)
                log(f"[grammar] llama-completion {mode}: {perf['generated']} tokens, {perf['tg']:.1f} tok/s")
                if r.disturbed() or quiet.busy:
                    disturbed.append(f"grammar reference {mode} run {rnd + 1} ({r.others_cpu:.1f} CPU-s by others)")
    finally:
        os.unlink(schema)
    med = {m: {"tokens": statistics.median(x["generated"] for x in v),
               "seconds": statistics.median(x["generation_s"] for x in v),
               "tps": statistics.median(x["tg"] for x in v)} for m, v in runs.items()}
    return {"free": med["free"], "guided": med["guided"],
            "overhead_percent": (med["free"]["tps"] / med["guided"]["tps"] - 1) * 100,
            "free_text": runs["free"][-1]["text"], "guided_text": runs["guided"][-1]["text"]}


# ---------------------------------------------------------------------------------------------
# Report


def fmt(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    out(line(header))
    out("  ".join("-" * w for w in widths))
    for r in rows:
        out(line(r))


def print_speed(args, tools: list[Tool], results: dict[str, list[Speed]]) -> dict:
    med = {}
    for t in tools:
        runs = results.get(t.key) or []
        if runs:
            med[t.key] = (statistics.median(r.pp for r in runs), statistics.median(r.tg for r in runs))
    base = med.get("llama-bench")
    rows = []
    for t in tools:
        runs = results.get(t.key) or []
        if not runs:
            continue
        pp, tg = med[t.key]
        rows.append([
            t.label, fmt(pp), fmt(tg),
            fmt(pp / base[0], 2) if base else "-", fmt(tg / base[1], 2) if base else "-",
            f"{min(r.pp for r in runs):.1f}-{max(r.pp for r in runs):.1f}",
            f"{min(r.tg for r in runs):.1f}-{max(r.tg for r in runs):.1f}",
        ])
    p, g = args.prompt_tokens, args.generate
    table(["tool", f"pp{p} tok/s", f"tg{g} tok/s", "pp x llama-bench", "tg x llama-bench",
           "pp range", "tg range"], rows)
    verdict = {}
    if base and "ours" in med:
        rp, rg = med["ours"][0] / base[0], med["ours"][1] / base[1]
        ok = rp >= TARGET_RATIO and rg >= TARGET_RATIO
        verdict = {"pp_ratio": rp, "tg_ratio": rg, "meets_target": ok}
        out(f"ours / llama-bench: prompt {rp:.2f}, generation {rg:.2f} (target >= {TARGET_RATIO}): "
            + ("met" if ok else "NOT met"))
    return verdict


def print_grammar(j: dict) -> None:
    out(f"grammar ({j['runs']} runs each, greedy): the note analysis as free text (the JSON asked for in "
        "words) and under the grammar of MeetingNoteAnalysis; generation only")
    rows = [
        ["ours: free text", str(j["free_tokens"]), fmt(j["free_seconds"], 2), fmt(j["free_tokens_per_second"])],
        ["ours: @Generable grammar", str(j["guided_tokens"]), fmt(j["guided_seconds"], 2),
         fmt(j["guided_tokens_per_second"])],
    ]
    ref = j.get("llama_completion")
    if ref:
        rows += [
            ["llama-completion: free text", f"{ref['free']['tokens']:g}", fmt(ref["free"]["seconds"], 2),
             fmt(ref["free"]["tps"])],
            ["llama-completion: --json-schema", f"{ref['guided']['tokens']:g}", fmt(ref["guided"]["seconds"], 2),
             fmt(ref["guided"]["tps"])],
        ]
    table(["generation", "tokens", "s (median)", "tok/s (median)"], rows)
    line = f"grammar overhead per token: ours {j['overhead_percent']:+.1f}%"
    if ref:
        line += f", llama.cpp's common sampler {ref['overhead_percent']:+.1f}%"
    out(line)
    out(f"ours: same text free and guided: {j['same_text']}; same JSON value: {j['same_json']}; "
        f"free text decodes as the type: {j['free_decodes']}")


def print_prewarm(j: dict) -> None:
    out(f"prewarm ({j['runs']} runs each, wait {j['wait_seconds']:g} s after prewarm(); instructions "
        f"{j['instructions_tokens']} tokens, whole prompt {j['prompt_tokens']} tokens): seconds to the first "
        "snapshot")
    table(["case", "without prewarm", "with prewarm", "saved"], [
        ["new process (weights not loaded)", fmt(j["cold_plain_seconds"], 2), fmt(j["cold_prewarmed_seconds"], 2),
         fmt(j["cold_plain_seconds"] - j["cold_prewarmed_seconds"], 2)],
        ["weights loaded, new session", fmt(j["warm_plain_seconds"], 2), fmt(j["warm_prewarmed_seconds"], 2),
         fmt(j["warm_plain_seconds"] - j["warm_prewarmed_seconds"], 2)],
    ])


def print_schema(j: dict) -> None:
    out(f"includeSchemaInPrompt ({j['runs']} runs each, KV cache emptied before each, greedy, guided "
        "MeetingNoteAnalysis)")
    rows = []
    for key, label in (("with_schema", "true"), ("without_schema", "false")):
        v = j[key]
        rows.append([label, str(v["prompt_tokens"]), fmt(v["first_snapshot_seconds"], 2),
                     fmt(v["total_seconds"], 2), str(v["output_tokens"]) + (" (limit)" if v["reached_limit"] else ""),
                     str(len(v["tags"])), str(len(v["people"])), str(len(v["action_items"]))])
    table(["includeSchemaInPrompt", "prompt tokens", "first snapshot s", "total s", "output tokens", "tags",
           "people", "action items"], rows)
    for key, label in (("with_schema", "true"), ("without_schema", "false")):
        v = j[key]
        out(f"  {label}: title {v['title']!r}; people {', '.join(v['people']) or '-'}; action items: "
            + ("; ".join(v["action_items"]) or "-"))


# ---------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(
        description="Language-model benchmark: LanguageModels vs llama.cpp's llama-bench and llama-completion.")
    ap.add_argument("--model", default="qwen-1.5b", help="qwen-1.5b (default), qwen-0.5b or smollm-135m")
    ap.add_argument("--runs", type=int, default=3, help="measured runs per tool, and per extra case (default 3)")
    ap.add_argument("--warmups", type=int, default=0,
                    help="unmeasured speed rounds first (default 0: every tool warms up inside each run)")
    ap.add_argument("--tools", default=",".join(ALL_TOOLS), help=f"speed tools, a subset of {','.join(ALL_TOOLS)}")
    ap.add_argument("--extras", default="grammar,prewarm,schema",
                    help="our API's costs to measure after the speed rounds; '' for none (default all)")
    ap.add_argument("--threads", type=int, default=2, help="threads for every tool (default 2)")
    ap.add_argument("--prompt-tokens", type=int, default=512)
    ap.add_argument("--generate", type=int, default=128)
    ap.add_argument("--wait", type=float, default=10.0, help="seconds prewarm() gets before the request (default 10)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="per-process limit, s (default 1800)")
    ap.add_argument("--no-build", action="store_true", help="do not run swift build first")
    ap.add_argument("--no-wait", action="store_true",
                    help="do not wait for builds and tests to finish before each run (runs beside them are "
                         "still marked disturbed)")
    ap.add_argument("--binary", default=str(ROOT / ".build" / "release" / PRODUCT))
    ap.add_argument("--llama-tools", default=str(DEFAULT_CACHE / "llama-tools" / "bin"),
                    help="folder with llama-bench and llama-completion (scripts/bench-deps.sh builds them)")
    ap.add_argument("--models", default=os.environ.get("VOICENOTES_MODELS") or str(ROOT / ".deps" / "models"))
    ap.add_argument("--json", help="also write every run's numbers to this file")
    args = ap.parse_args()
    global WAIT_FOR_QUIET
    WAIT_FOR_QUIET = not args.no_wait

    keys = list(dict.fromkeys(k.strip() for k in args.tools.split(",") if k.strip()))
    if not keys or any(k not in ALL_TOOLS for k in keys):
        die(f"--tools: choose from {', '.join(ALL_TOOLS)}")
    extras = [e.strip() for e in args.extras.split(",") if e.strip()]
    if any(e not in ("grammar", "prewarm", "schema") for e in extras):
        die("--extras: choose from grammar, prewarm, schema")
    if args.runs < 1 or args.threads < 1:
        die("--runs and --threads must be at least 1")
    args.gguf = Path(args.models) / f"{args.model}.gguf"
    if not args.gguf.is_file():
        die(f"{args.gguf} missing: run `voicenotes models install {args.model}` (make models)")

    if not args.no_build:
        build_ours(args)
    tools = check_tools(args, keys)
    problems = [t for t in tools if t.problem]
    if problems or (extras and not os.access(args.binary, os.X_OK)):
        for t in problems:
            log(f"bench: {t.label}: {t.problem}")
        die("cannot run the tools above; fix them or leave them out with --tools")

    cpu = ""
    if Path("/proc/cpuinfo").exists():
        cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                    if l.startswith("model name")), platform.processor())
    wait_for_quiet("starting")
    busy = cpu_busy()
    out(f"model: {args.gguf} ({args.gguf.stat().st_size / 1e6:.0f} MB)")
    out(f"settings: {args.threads} threads, OMP_WAIT_POLICY=passive, speed pp{args.prompt_tokens} and "
        f"tg{args.generate} after {args.prompt_tokens} tokens; {args.warmups} warm-up + {args.runs} measured "
        "rounds, order rotating each round")
    out(f"machine: {os.cpu_count()} cores, {cpu}; CPU {busy:.0f}% busy before the first run")
    if busy > 20:
        log("bench: warning: the machine is busy; timings will be noisy")

    report: dict = {"model": args.model, "gguf": str(args.gguf), "threads": args.threads, "runs": args.runs,
                    "speed": {}, "extras": {}, "disturbed": [], "failed": {}}
    disturbed: list[str] = report["disturbed"]
    failed: dict[str, str] = report["failed"]

    # Speed, round-robin.
    results: dict[str, list[Speed]] = {t.key: [] for t in tools}
    prompt = None
    if "llama-completion" in keys:
        try:
            prompt, count = rendered_prompt(args)
            log(f"bench: llama-completion gets our rendered {count}-token prompt")
        except RunFailed as e:
            failed["llama-completion"] = f"cannot get the prompt: {e}"
    total_rounds = args.warmups + args.runs
    for rnd in range(total_rounds):
        warm = rnd < args.warmups
        shift = rnd % len(tools)
        order = tools[shift:] + tools[:shift]
        tag = f"warm-up {rnd + 1}/{args.warmups}" if warm else f"run {rnd - args.warmups + 1}/{args.runs}"
        for t in order:
            if t.key in failed:
                continue
            quiet = wait_for_quiet(f"{tag} {t.label}")
            log(f"[{tag}] {t.label} ...")
            try:
                if t.key == "ours":
                    s = speed_ours(args)
                elif t.key == "llama-bench":
                    s = speed_llama_bench(args)
                else:
                    s = speed_llama_completion(args, prompt)
            except RunFailed as e:
                failed[t.key] = str(e)
                log(f"[{tag}] {t.label} FAILED: {e}")
                continue
            s.disturbed = s.disturbed or bool(quiet.busy)
            log(f"[{tag}] {t.label}: pp {s.pp:.1f} tok/s, tg {s.tg:.1f} tok/s, {s.wall:.1f} s wall, "
                f"other processes {s.others_cpu:.1f} CPU-s" + (" (DISTURBED)" if s.disturbed else ""))
            if not warm:
                results[t.key].append(s)
                if s.disturbed:
                    disturbed.append(f"speed {t.label} {tag} ({s.others_cpu:.1f} CPU-s by others)")

    out()
    out(f"speed: prompt processing (pp) and generation (tg) in tokens/s, medians of {args.runs} runs")
    report["speed"]["verdict"] = print_speed(args, tools, results)
    report["speed"]["runs"] = {k: [{"pp": s.pp, "tg": s.tg, "wall": s.wall, "others_cpu": s.others_cpu,
                                    "disturbed": s.disturbed, "detail": s.detail} for s in v]
                               for k, v in results.items()}

    # Our API's own costs.
    printers = {"grammar": print_grammar, "prewarm": print_prewarm, "schema": print_schema}
    for extra in extras:
        argv = [args.binary, extra, "--model", args.model, "--runs", str(args.runs)]
        if extra == "prewarm":
            argv += ["--wait", str(args.wait)]
        quiet = wait_for_quiet(extra)
        log(f"[{extra}] " + " ".join(argv[1:]))
        try:
            p = run(argv, engine_env(args), args.timeout)
            j = last_json(p.stdout, f"{PRODUCT} {extra}")
        except RunFailed as e:
            failed[extra] = str(e)
            log(f"[{extra}] FAILED: {e}")
            continue
        if p.disturbed() or quiet.busy:
            disturbed.append(f"{extra} ({p.others_cpu:.1f} CPU-s by others over {p.wall:.0f} s)")
        j["wall_seconds"], j["others_cpu_seconds"] = p.wall, p.others_cpu
        if extra == "grammar" and "llama-completion" in keys and "llama-completion" not in failed:
            try:
                j["llama_completion"] = grammar_reference(args, disturbed)
            except RunFailed as e:
                failed["grammar reference"] = str(e)
                log(f"[grammar] llama-completion FAILED: {e}")
        report["extras"][extra] = j
        out()
        printers[extra](j)

    out()
    out(f"CPU {cpu_busy():.0f}% busy after the last run")
    if disturbed:
        out("warning: disturbed (other processes used the CPU): " + "; ".join(disturbed)
            + ". Rerun on a quiet machine.")
    for key, why in failed.items():
        out(f"{TOOL_LABELS.get(key, key)}: FAILED: {why.splitlines()[0]}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
