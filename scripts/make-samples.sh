#!/usr/bin/env bash
# Regenerates the bundled sample voice notes in Samples/ with espeak-ng and ffmpeg (Debian).
# The committed files came from this script; run it only to change them. espeak-ng's voices are
# formant synthesis, which Whisper mishears more easily than a person's voice, the more so after a
# lossy codec: the groceries note uses a clearer voice and 48 kb/s Opus (at 24 kb/s "Reminder ...
# Buy oat milk" was heard as "Remind her ... My oatmeal").
set -euo pipefail
cd "$(dirname "$0")/.."
out=Samples
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

say() { # say NAME VOICE SPEED TEXT
  espeak-ng -v "$2" -s "$3" -w "$tmp/$1.wav" "$4"
}

say team-sync en-us+m3 150 "Quick note after the team sync. Priya will send the revised budget to finance by Friday. \
Marcus agreed to book the venue for the offsite, and I need to call the caterer tomorrow morning to confirm the numbers."
say groceries en-gb+f3 135 "Reminder for the weekend. Buy oat milk, coffee beans and fresh basil. \
Pick up the dry cleaning before noon on Saturday, and ask Elena whether she still needs a lift to the airport."
say book-idea en-us+m1 140 "An idea for the book club. Next month we could read a short novel instead of a long one, \
so that more people finish it. Tom suggested meeting at the library because the cafe is too noisy."

ffmpeg -loglevel error -y -i "$tmp/team-sync.wav" -c:a aac -b:a 48k "$out/team-sync.m4a"
ffmpeg -loglevel error -y -i "$tmp/groceries.wav" -c:a libopus -b:a 48k "$out/groceries.opus"
ffmpeg -loglevel error -y -i "$tmp/book-idea.wav" -c:a libmp3lame -b:a 48k "$out/book-idea.mp3"
ls -l "$out"
