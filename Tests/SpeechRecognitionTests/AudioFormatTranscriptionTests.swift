import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

/// Every container format transcribes to the same words as the original WAV.
@Suite("Transcribing every format", .serialized)
struct AudioFormatTranscriptionTests {
  static let encodings: [(file: String, arguments: [String])] = [
    ("memo.flac", ["-c:a", "flac"]),
    ("memo.mp3", ["-c:a", "libmp3lame", "-b:a", "64k", "-ar", "44100"]),
    ("memo.ogg", ["-c:a", "libvorbis", "-ar", "44100"]),
    ("memo.opus", ["-c:a", "libopus", "-b:a", "32k"]),
    ("memo-aac.m4a", ["-c:a", "aac", "-b:a", "64k", "-ar", "48000", "-ac", "2"]),
    ("memo-alac.m4a", ["-c:a", "alac", "-ar", "44100"]),
  ]

  @Test("each format gives the words of the WAV original")
  func sameWords() async throws {
    let folder = Fixtures.temporaryFolder("speech-formats")
    defer { try? FileManager.default.removeItem(at: folder) }
    let transcriber = FileTranscriber(model: .base, locale: Locale(identifier: "en"))
    let reference = WordErrorRate.normalizedWords(Fixtures.jfkText)
    for encoding in Self.encodings {
      let file = folder.appendingPathComponent(encoding.file)
      try Fixtures.encode(Fixtures.jfk, to: file, encoding.arguments)
      let words = WordErrorRate.normalizedWords(try await transcriber.transcribe(file).text)
      #expect(words == reference, "\(encoding.file): \(words.joined(separator: " "))")
    }
  }
}
