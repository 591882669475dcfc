#!/usr/bin/env python3
"""Writes the committed seed corpus (Fuzz/Corpus/<Target>/): small inputs made here, by hand or
synthesized (a tone encoded by the ffmpeg tool for the compressed audio formats). Run from the
repository root; it replaces the seeds it makes and leaves any other file (crash reproducers)."""

import json
import math
import os
import struct
import subprocess
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus")
EXTENSIONS = ["wav", "flac", "mp3", "ogg", "oga", "opus", "m4a", "mp4", "aac", "caf", "aiff"]


def write(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def wav(samples, rate=16000, channels=1, float32=False):
    if float32:
        body = b"".join(struct.pack("<f", s) for s in samples)
        tag, bits = 3, 32
    else:
        body = b"".join(struct.pack("<h", max(-32768, min(32767, int(s * 32767)))) for s in samples)
        tag, bits = 1, 16
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    return b"RIFF" + struct.pack("<I", 36 + len(body)) + b"WAVEfmt " + struct.pack("<I", 16) + fmt + \
        b"data" + struct.pack("<I", len(body)) + body


def tone(count, rate=16000):
    return [0.5 * math.sin(2 * math.pi * 440 * i / rate) for i in range(count)]


def audio():
    # Even first byte: a file to decode, its extension EXTENSIONS[byte >> 1] (or none past the list).
    write("AudioFile", "wav-int16", bytes([0]) + wav(tone(200)))
    write("AudioFile", "wav-float", bytes([0]) + wav(tone(100), rate=8000, float32=True))
    write("AudioFile", "wav-stereo", bytes([0]) + wav(tone(160), rate=44100, channels=2))
    write("AudioFile", "wav-no-extension", bytes([2 * len(EXTENSIONS)]) + wav(tone(50)))
    write("AudioFile", "wav-empty-data", bytes([0]) + wav([]))
    write("AudioFile", "not-audio", bytes([0]) + b"hello, this is text, not audio\n")
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "tone.wav")
        with open(source, "wb") as f:
            f.write(wav(tone(1600), rate=8000))
        for extension, options in [("flac", []), ("mp3", ["-b:a", "8k"]), ("ogg", ["-c:a", "libvorbis", "-q:a", "0"]),
                                   ("opus", ["-b:a", "6k"]), ("m4a", ["-b:a", "8k"]), ("aiff", []), ("caf", [])]:
            out = os.path.join(scratch, "tone." + extension)
            result = subprocess.run(["ffmpeg", "-v", "quiet", "-y", "-i", source, *options, out])
            if result.returncode == 0:
                with open(out, "rb") as f:
                    write("AudioFile", "tone-" + extension, bytes([2 * EXTENSIONS.index(extension)]) + f.read())
    # Odd first byte: WAV writer round trip; bits 1 float32, 2 streamed, >> 3 channels - 1; then a
    # rate byte; then samples as Float32 bit patterns.
    samples = b"".join(struct.pack("<f", s) for s in [0, 0.5, -0.5, 1, -1, 2, -2, float("nan"), float("inf"), 1e-30])
    write("AudioFile", "write-int16", bytes([1, 2]) + samples)
    write("AudioFile", "write-float", bytes([3, 5]) + samples)
    write("AudioFile", "write-streamed-stereo", bytes([1 | 4 | 8, 0]) + samples)
    write("AudioFile", "write-odd-rate", bytes([3, 250, 0x10, 0x01]) + samples)


def custom_language_model():
    base = {"format": "voicenotes.custom-language-model-data", "formatVersion": 1, "locale": "en_US",
            "identifier": "com.example.commands", "version": "1.0"}
    write("CustomLanguageModel", "full", json.dumps(dict(base, **{
        "phraseCounts": [{"phrase": "See the sea", "count": 100}],
        "templateGroups": [{"classes": {"color": ["red", "blue"], "thing": ["the light", "the fan"]},
                            "templates": [{"body": "Set background to <color>", "count": 10000},
                                          {"body": "turn on <thing>", "count": 5}]}],
        "customPronunciations": [{"grapheme": "Aw Aw R", "phonemes": ["aU aU @r"]}]}), indent=1))
    write("CustomLanguageModel", "empty", json.dumps(dict(base, phraseCounts=[], templateGroups=[],
                                                          customPronunciations=[])))
    write("CustomLanguageModel", "newer-version", json.dumps(dict(base, formatVersion=2)))
    write("CustomLanguageModel", "not-json", "format: voicenotes")
    write("CustomLanguageModel", "compiled-header",
          json.dumps({"format": "voicenotes.compiled-language-model", "formatVersion": 1, "sourceDigest": "00",
                      "locale": "en_US", "identifier": "x", "version": "1", "phrases": [], "gbnf": "root ::= \"a\"",
                      "grammar": {}, "vocabulary": {"terms": [], "pronunciations": []}}))


def json_seeds():
    for name, text in [
        ("object", '{"title": "Offsite plans", "tags": ["work", "travel"], "count": 3, "done": false}'),
        ("nested", '{"a": {"b": [1, 2.5, -3e2, null, true]}, "c": "\\u00e9\\n\\"q\\""}'),
        ("partial", '{"summary": "We agreed to mo'),
        ("array", '[[], {}, "", 0, -0.0, 1E+2]'),
        ("string", '"caf\\u00e9 \\ud83d\\ude00"'),
        ("whitespace", ' \n\t{ "k" :\r\n"v" } '),
        ("number", "12345678901234567890"),
    ]:
        write("JSON", name, text)


def schema():
    for name, value in [
        ("object", {"root": {"object": "Note", "description": "A note", "properties": [
            {"name": "title", "schema": {"type": "string", "guides": [{"pattern": "[A-Z][a-z]+"}]}},
            {"name": "rating", "optional": True, "schema": {"type": "int", "guides": [{"range": [1, 5]}]}},
            {"name": "score", "schema": {"type": "double", "guides": [{"min": 0.5}, {"max": 9.5}]}},
            {"name": "tags", "schema": {"type": "strings", "guides": [{"maxCount": 3}]}},
            {"name": "kind", "schema": {"ref": "Kind"}},
            {"name": "items", "schema": {"array": {"ref": "Item"}, "min": 1, "max": 4}}]},
         "dependencies": [{"strings": "Kind", "choices": ["idea", "task"]},
                          {"object": "Item", "properties": [{"name": "done", "schema": {"type": "bool"}}]}]}),
        ("union", {"root": {"union": "Shape", "choices": [
            {"object": "Circle", "properties": [{"name": "r", "schema": {"type": "float", "guides": [{"range": [0, 1]}]}}]},
            {"object": "Square", "properties": [{"name": "side", "schema": {"type": "decimal", "guides": [{"min": 1}]}}]}]}}),
        ("missing-reference", {"root": {"array": {"ref": "Nowhere"}}}),
        ("constant", {"root": {"type": "string", "guides": [{"constant": "yes"}, {"anyOf": ["a", "b"]}]}}),
        ("recursive", {"root": {"ref": "Node"}, "dependencies": [{"object": "Node", "properties": [
            {"name": "children", "schema": {"array": {"ref": "Node"}}}]}]}),
    ]:
        write("Schema", name, json.dumps(value))


def command_line():
    # First byte: the positional shape (0 none, 1 id, 2 optional id, 3 repeating, 4 id and words).
    for name, shape, words in [
        ("flags", 0, ["--json", "-v", "--format", "md"]),
        ("inline", 1, ["3f2a", "--format=json", "--limit=5", "-l", "/tmp/lib"]),
        ("double-dash", 3, ["mar", "--", "--json", "-"]),
        ("bad-value", 4, ["id", "new", "title", "--limit", "zero", "--format", "pdf"]),
        ("missing-value", 2, ["--library"]),
        ("unknown", 0, ["--nope", "-x", "-vv"]),
    ]:
        write("CommandLine", name, bytes([shape]) + b"\0".join(w.encode() for w in words))


def search_query():
    for name, query, text in [
        ("words", "mar budget", "Marta said the budget for March is tight."),
        ("quotes", 'o\'neil "x" AND OR NOT NEAR(', "O'Neil and the NEAR team"),
        ("accents", "JOSE zoe", "José met Zoë in Malmö."),
        ("punctuation", "-- * ()", "nothing here"),
        ("hyphen", "e-mail", "send the e mail and the e-mail"),
        ("spaces", "   ", ""),
    ]:
        write("SearchQuery", name, query.encode() + b"\0" + text.encode())


def http():
    for name, text in [
        ("page", "GET /\nHost: 127.0.0.1:8765\n\n"),
        ("notes", "GET /api/notes?limit=5&cursor=abc\n\n"),
        ("search", "GET /api/search?q=mar+budget&scope=action-items\n\n"),
        ("rename", "PATCH /api/notes/3f2a-0000\nContent-Type: application/json\nOrigin: http://127.0.0.1:8765\n\n"
                   '{"title": "Offsite plans"}'),
        ("tick", "PATCH /api/tasks/abcd\nContent-Type: application/json\n\n{\"done\": true}"),
        ("range", "GET /api/notes/abcd/audio\nRange: bytes=0-99\n\n0123456789"),
        ("remote", "GET /api/status\nHost: 192.168.1.5:8765\nX-Fuzz-Remote: 1\nCookie: voicenotes_token=fuzz-token\n\n"),
        ("login", "GET /login?token=fuzz-token\nX-Fuzz-Remote: 1\n\n"),
        ("cross-site", "POST /api/imports?name=..%2Fx.wav\nOrigin: http://evil.example\nContent-Type: audio/wav\n\n"),
        ("upload", "POST /api/imports?name=memo.wav\nContent-Type: text/plain\n\n"),
        ("export", "GET /api/notes/abcd/export?format=srt\n\n"),
        ("tasks", "GET /api/tasks?completed=true&person=priya\n\n"),
        ("bad-method", "TRACE /api/models\n\n"),
        ("bad-host", "GET /app/app.js\nHost: evil.example\nIf-None-Match: x\n\n"),
    ]:
        write("HTTP", name, text)


if __name__ == "__main__":
    audio()
    custom_language_model()
    json_seeds()
    schema()
    command_line()
    search_query()
    http()
