import AudioIO
import Foundation
import ModelSupport
import TestSupport
import Testing
import VoiceNotes

/// `voicenotes record` end to end with the real engines: real speech played through the live
/// path at real-time pace (`--input`) or read from an ALSA capture device, the audio in the
/// library compared sample by sample with what was played, the note's transcript with the
/// file's, and a recording killed mid-way.
@Suite("Recording notes", .serialized)
struct RecordCommandTests {
  /// The largest difference between samples that went through 16-bit WAV files a different
  /// number of times (each round trip may move a loud sample by one step).
  static let sampleTolerance: Float = 2.5 / 32_768

  /// The smallest language model analyses the notes: what is checked here is the recording, and
  /// that the note goes on to be done.
  static let environment = ["VOICENOTES_MODELS": Fixtures.models.path, "VOICENOTES_LANGUAGE_MODEL": "smollm-135m"]

  func voicenotes(_ arguments: [String], library: URL, environment: [String: String] = [:]) throws -> Program {
    try Program.run(
      [Fixtures.program.path] + arguments + ["--library", library.path],
      environment: Self.environment.merging(environment) { $1 })
  }

  /// Every note in `library`, read by a new process.
  /// The library's notes in full, as the store holds them; `list` must list the same ids.
  func listedNotes(_ library: URL) async throws -> [VoiceNote] {
    let listed = try voicenotes(["list", "--json"], library: library)
    #expect(listed.status == 0, "\(listed.standardError)")
    let objects = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]] ?? []
    let notes = try await NoteStore(library: library).allNotes()
    #expect(objects.compactMap { $0["id"] as? String } == notes.map(\.id))
    return notes
  }

  /// The LibriVox utterances and jfk.wav joined with a second of silence around each: about
  /// 43 s of real speech, as a 16-bit WAV file and as read back from it.
  static func passage(in folder: URL) throws -> (url: URL, audio: AudioBuffer) {
    let recordings = Fixtures.librivox.map(\.audio) + [Fixtures.jfk]
    try #require(recordings.count == 6, "pocketsphinx-testdata is missing; run make deps")
    let pause = [Float](repeating: 0, count: 16_000)
    var samples = pause
    for recording in recordings {
      samples += try AudioFile(forReading: recording).read().samples + pause
    }
    let url = folder.appendingPathComponent("passage.wav")
    try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: samples), to: url)
    return (url, try AudioFile(forReading: url).read())
  }

  /// Starts `voicenotes record` with `arguments` and returns once it says it is recording (when
  /// a file starts playing), with that moment.
  func startRecording(_ arguments: [String], library: URL) throws -> (Process, Date) {
    let process = Process()
    process.executableURL = Fixtures.program
    process.arguments = ["record"] + arguments + ["--library", library.path]
    process.environment = ProcessInfo.processInfo.environment.merging(Self.environment) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.runWithDefaultSignals()
    var said = ""
    while !said.contains("recording note") {
      let data = errors.fileHandleForReading.availableData
      if data.isEmpty { break }
      said += String(decoding: data, as: UTF8.self)
    }
    try #require(said.contains("recording note"), "\(said)")
    return (process, Date())
  }

  /// The largest difference between `recorded` and the start of `played`.
  static func largestDifference(_ recorded: AudioBuffer, _ played: AudioBuffer) -> Float {
    zip(recorded.samples, played.samples).map { abs($0 - $1) }.max() ?? 0
  }

  /// The note's audio file, decoded.
  static func storedAudio(of note: VoiceNote, in library: URL) throws -> AudioBuffer {
    try AudioFile(forReading: library.appendingPathComponent("audio").appendingPathComponent(note.audioFileName)).read()
  }

  @Test("record --input: every sample reaches the library and the transcript matches the file's")
  func recordsAFile() async throws {
    let folder = Fixtures.temporaryFolder("record-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let passage = try Self.passage(in: folder)
    let reference = try await FileTranscriber(model: .base).transcribe(passage.url).text

    let started = Date()
    let recorded = try voicenotes(["record", "--input", passage.url.path], library: library)
    let elapsed = Date().timeIntervalSince(started)
    #expect(recorded.status == 0, "\(recorded.standardError)")
    #expect(elapsed >= passage.audio.duration, "played in real time: \(elapsed) s for \(passage.audio.duration) s")

    let notes = try await listedNotes(library)
    try #require(notes.count == 1, "\(notes)")
    let note = notes[0]
    #expect(note.processing == ProcessingState(stage: .done), "\(note.processing)")
    #expect(note.originalFileName == "passage.wav")
    let stored = try Self.storedAudio(of: note, in: library)
    let lost = passage.audio.duration - stored.duration
    #expect(stored.frameLength == passage.audio.frameLength, "lost \(lost) s")
    #expect(Self.largestDifference(stored, passage.audio) <= Self.sampleTolerance)
    #expect(abs(note.duration - passage.audio.duration) < 0.01, "note duration \(note.duration)")

    let transcript = note.transcript?.text ?? ""
    let rate = WordErrorRate(reference: reference, hypothesis: transcript)
    // Only final lines go to a pipe: the live transcript, for show.
    let live = WordErrorRate(reference: reference, hypothesis: recorded.standardOutput)
    print("record --input: lost \(lost) s; note vs file WER \(rate); live vs file WER \(live)")
    #expect(rate.rate <= 0.05, "note: \(transcript)\nfile: \(reference)")
    #expect(live.rate <= 0.1, "live: \(recorded.standardOutput)")
    #expect(!recorded.standardOutput.contains("\u{1B}"), "no terminal codes in a pipe")
    #expect(recorded.standardError.contains("saved note \(note.id.prefix(8))"), "\(recorded.standardError)")
  }

  @Test("--duration cut mid-word keeps every sample up to the cut, and the live text reaches it")
  func durationCutsMidWord() async throws {
    let folder = Fixtures.temporaryFolder("record-cut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    // "... ask what you can do for your coun|try": the middle of the last word.
    let words = try await FileTranscriber(model: .base).transcribe(Fixtures.jfk).segments.flatMap(\.words)
    let country = try #require(words.last)
    #expect(WordErrorRate.normalizedWords(country.text) == ["country"])
    let cut = String(format: "%.3f", (country.start + country.end) / 2)
    let cutFrames = Int((Double(cut)! * 16_000).rounded())

    let recorded = try voicenotes(
      ["record", "--input", Fixtures.jfk.path, "--duration", cut, "--no-process"], library: library)
    #expect(recorded.status == 0, "\(recorded.standardError)")

    let store = try NoteStore(library: library)
    let notes = try await store.allNotes()
    try #require(notes.count == 1)
    #expect(notes[0].processing.stage == .transcribing, "saved, waiting to be transcribed")
    #expect(abs(notes[0].duration - Double(cut)!) < 0.001, "duration \(notes[0].duration) for a cut at \(cut)")
    let stored = try Self.storedAudio(of: notes[0], in: library)
    let original = try AudioFile(forReading: Fixtures.jfk).read()
    #expect(stored.frameLength == cutFrames, "\(stored.frameLength) frames for a cut at frame \(cutFrames)")
    #expect(Self.largestDifference(stored, original) <= Self.sampleTolerance)

    // The live transcript finalised the open utterance at the cut: "... can do for your".
    let live = WordErrorRate.normalizedWords(recorded.standardOutput)
    print("cut at \(cut) s: stored \(stored.frameLength) frames; live: \(recorded.standardOutput)")
    #expect(live.suffix(3).contains("your"), "\(live)")
  }

  @Test("kill -9 mid-recording leaves a playable WAV of what was played; `resume` finishes the note")
  func killedRecording() async throws {
    let folder = Fixtures.temporaryFolder("record-kill")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let passage = try Self.passage(in: folder)

    let (process, started) = try startRecording(["--input", passage.url.path], library: library)
    try await Task.sleep(for: .seconds(8))
    let played = Date().timeIntervalSince(started)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)

    let files = try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent("audio").path)
      .filter { $0.hasSuffix(".wav") }
    try #require(files.count == 1, "\(files)")
    let stored = try AudioFile(forReading: library.appendingPathComponent("audio").appendingPathComponent(files[0]))
      .read()
    print(String(format: "killed after %.2f s of playback: %.2f s in the file", played, stored.duration))
    #expect(stored.duration <= played + 0.1 && stored.duration >= played - 1, "\(stored.duration) s of \(played) s")
    #expect(Self.largestDifference(stored, passage.audio) <= Self.sampleTolerance)

    // Reading leaves the note as it is; `resume` does the work.
    let unfinished = try await listedNotes(library)
    #expect(unfinished.first?.processing.stage == .recording, "\(unfinished.first?.processing as Any)")
    let resumed = try voicenotes(["resume", "--quiet"], library: library)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let notes = try await listedNotes(library)
    try #require(notes.count == 1)
    #expect(notes[0].processing.stage == .done, "\(notes[0].processing)")
    #expect(abs(notes[0].duration - stored.duration) < 0.01, "duration \(notes[0].duration)")
    let transcript = notes[0].transcript?.text ?? ""
    // The first utterance of the passage, at least, was played before the kill.
    let heard = WordErrorRate.normalizedWords(transcript)
    #expect(heard.starts(with: ["and", "mister", "john", "dashwood"]), "\(transcript)")
  }

  @Test("Ctrl-C stops gracefully with everything played so far; a second one aborts at once")
  func interrupted() async throws {
    let folder = Fixtures.temporaryFolder("record-interrupt")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let passage = try Self.passage(in: folder)

    let (process, started) = try startRecording(["--input", passage.url.path, "--no-process"], library: library)
    try await Task.sleep(for: .seconds(5.3))
    let played = Date().timeIntervalSince(started)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    let store = try NoteStore(library: library)
    let notes = try await store.allNotes()
    try #require(notes.count == 1)
    #expect(notes[0].processing.stage == .transcribing, "\(notes[0].processing)")
    let stored = try Self.storedAudio(of: notes[0], in: library)
    print(String(format: "Ctrl-C after %.3f s of playback: %.3f s in the file", played, stored.duration))
    #expect(stored.duration >= played - 0.05 && stored.duration <= played + 0.15, "\(stored.duration) s of \(played) s")
    #expect(Self.largestDifference(stored, passage.audio) <= Self.sampleTolerance)

    // Two in a row: the second ends the process at once (here while it finishes the live
    // transcript or transcribes); the note keeps its audio and waits for the next command.
    let (again, _) = try startRecording(["--input", passage.url.path], library: library)
    try await Task.sleep(for: .seconds(2))
    kill(again.processIdentifier, SIGINT)
    try await Task.sleep(for: .seconds(0.3))
    kill(again.processIdentifier, SIGINT)
    again.waitUntilExit()
    #expect(again.terminationStatus == 130)
    let aborted = try #require(try await store.allNotes().first { $0.id != notes[0].id })
    #expect([.recording, .transcribing].contains(aborted.processing.stage), "\(aborted.processing)")
    #expect(try Self.storedAudio(of: aborted, in: library).duration > 1.5)
  }

  @Test("an ALSA capture device records through the same path, sample for sample")
  func recordsFromADevice() async throws {
    let folder = Fixtures.temporaryFolder("record-device")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    // An ALSA `file` device that plays jfk.wav (16 kHz, 16-bit) as fast as it is read.
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    let raw = folder.appendingPathComponent("jfk.raw")
    let values = speech.samples.map { Int16(($0 * 32_768).rounded()).littleEndian }
    try values.withUnsafeBytes { Data($0) }.write(to: raw)
    let configuration = folder.appendingPathComponent("asound.conf")
    try """
    pcm.vn_record_file {
      type file
      slave.pcm { type null }
      file "/dev/null"
      infile "\(raw.path)"
      format "raw"
    }
    pcm.vn_record {
      type plug
      slave { pcm "vn_record_file" format S16_LE rate 16000 channels 1 }
      hint { show on description "Test speech" }
    }

    """.write(to: configuration, atomically: true, encoding: .utf8)
    let alsa = ["ALSA_CONFIG_PATH": configuration.path]

    let devices = try voicenotes(["record", "--list-devices"], library: library, environment: alsa)
    #expect(devices.standardOutput.contains("vn_record  Test speech"), "\(devices.standardOutput)")
    let recorded = try voicenotes(
      ["record", "--device", "vn_record", "--duration", "4", "--no-process"], library: library, environment: alsa)
    #expect(recorded.status == 0, "\(recorded.standardError)")
    let notes = try await NoteStore(library: library).allNotes()
    try #require(notes.count == 1)
    #expect(notes[0].originalFileName == "microphone 'vn_record'")
    let stored = try Self.storedAudio(of: notes[0], in: library)
    #expect(stored.frameLength == 64_000)
    #expect(Self.largestDifference(stored, speech) <= Self.sampleTolerance)
    #expect(
      WordErrorRate.normalizedWords(recorded.standardOutput).starts(with: ["and", "so", "my", "fellow"]),
      "\(recorded.standardOutput)")
  }

  @Test("a bad --input file or device gives one line saying what to do and leaves the library as it was")
  func badInputs() async throws {
    let folder = Fixtures.temporaryFolder("record-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    // A library with one note in it already.
    let store = try NoteStore(library: library)
    var existing = VoiceNote(duration: 11, audioFileName: "kept.wav", originalFileName: "jfk.wav")
    existing.processing = ProcessingState(stage: .done)
    try await store.save(existing)
    let audio = library.appendingPathComponent("audio")
    try FileManager.default.copyItem(at: Fixtures.jfk, to: audio.appendingPathComponent("kept.wav"))

    let empty = folder.appendingPathComponent("empty.wav")
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    let text = folder.appendingPathComponent("notes.txt")
    try Data("not audio\n".utf8).write(to: text)
    let noDevices = folder.appendingPathComponent("asound.conf")
    try Data().write(to: noDevices)
    let cases: [(arguments: [String], environment: [String: String], mentions: [String])] = [
      (["--input", folder.appendingPathComponent("missing.wav").path], [:], ["missing.wav"]),
      (["--input", empty.path], [:], ["empty.wav"]),
      (["--input", text.path], [:], ["notes.txt"]),
      (["--input", folder.path], [:], [folder.lastPathComponent]),
      (["--device", "vn_nosuch"], [:], ["vn_nosuch", "--list-devices"]),
      ([], ["ALSA_CONFIG_PATH": noDevices.path], ["no microphone", "--input FILE", "--list-devices"]),
      (["--duration", "soon"], [:], ["--duration"]),
    ]
    for (arguments, environment, mentions) in cases {
      let result = try voicenotes(["record"] + arguments, library: library, environment: environment)
      #expect(result.status == (arguments.first == "--duration" ? 2 : 1), "\(arguments)")
      #expect(result.standardOutput.isEmpty)
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(arguments): \(result.standardError)")
      for word in mentions { #expect(result.standardError.contains(word), "\(arguments): \(result.standardError)") }
    }
    #expect(try await store.allNotes() == [existing])
    #expect(try FileManager.default.contentsOfDirectory(atPath: audio.path) == ["kept.wav"])
    #expect(try Data(contentsOf: audio.appendingPathComponent("kept.wav")) == Data(contentsOf: Fixtures.jfk))
  }
}
