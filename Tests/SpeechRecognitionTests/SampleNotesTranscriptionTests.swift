import Foundation
import TestSupport
import Testing
import VoiceNotes

/// The bundled sample notes (`make demo`) transcribe with the default model to their script's
/// words, each said once, in segments that follow one another in time.
///
/// They are short enough for one Whisper window, where a segment the greedy decode is unsure of
/// has the whole note decoded again with the beam: that decode must replace the greedy segments,
/// never follow the ones already heard.
@Suite("Transcribing the sample notes", .serialized)
struct SampleNotesTranscriptionTests {
  /// What scripts/make-samples.sh has espeak-ng say in each sample.
  static let scripts = [
    "team-sync.m4a":
      "Quick note after the team sync. Priya will send the revised budget to finance by Friday. Marcus agreed to book the venue for the offsite, and I need to call the caterer tomorrow morning to confirm the numbers.",
    "groceries.opus":
      "Reminder for the weekend. Buy oat milk, coffee beans and fresh basil. Pick up the dry cleaning before noon on Saturday, and ask Elena whether she still needs a lift to the airport.",
    "book-idea.mp3":
      "An idea for the book club. Next month we could read a short novel instead of a long one, so that more people finish it. Tom suggested meeting at the library because the cafe is too noisy.",
  ]

  @Test("each sample gives its script's words once, in segments in time order")
  func samples() async throws {
    let transcriber = FileTranscriber(locale: Locale(identifier: "en"))
    for (file, script) in Self.scripts.sorted(by: { $0.key < $1.key }) {
      let transcript = try await transcriber.transcribe(Fixtures.root.appendingPathComponent("Samples/\(file)"))
      // Synthetic voices after a lossy codec: a few words are misheard ("Helena" for "Elena").
      let rate = WordErrorRate(reference: script, hypothesis: transcript.text)
      #expect(rate.rate <= 0.15, "\(file): \(rate): \(transcript.text)")
      for (earlier, later) in zip(transcript.segments, transcript.segments.dropFirst()) {
        #expect(later.start >= earlier.end - 0.05, "\(file): \(later.text) starts before \(earlier.text) ends")
      }
    }
  }
}
