import Foundation

/// Why a ``Library`` call could not be done; each message says what to do.
public enum LibraryError: Error, LocalizedError, Equatable, Sendable {
  /// No recording under way has this identifier.
  case recordingNotFound(id: String)
  /// The recording was already stopped.
  case recordingFinished(id: String)
  /// Audio sent to a recording was not in the expected form.
  case invalidAudio(String)
  /// The note has nothing left to retry.
  case nothingToRetry(id: String)
  /// A title that is empty or too long.
  case invalidTitle(String)
  /// The note has no transcript for a transcript-only export.
  case noTranscript(id: String)
  /// No model has this name.
  case unknownModel(name: String, known: [String])
  /// The sample recordings are not where they should be.
  case samplesMissing(path: String)
  /// The note has no speaker with this number (it has `count`; none when its speakers were not
  /// told apart).
  case speakerNotFound(noteID: String, number: Int, count: Int)
  /// No named voice has this name.
  case voiceNotFound(name: String)
  /// Another named voice already has this name.
  case voiceExists(name: String)
  /// A speaker's name that is empty, too long or looks like an unnamed speaker's label.
  case invalidSpeakerName(String)
  /// Search by meaning was asked for, but the embedding model is not installed.
  case semanticIndexUnavailable
  /// Search by meaning was asked for, but no note is in the semantic index yet.
  case semanticIndexEmpty
  /// Search by meaning was asked for in a field it does not look in (titles, tags, people).
  case semanticScope(String)
  /// A question to ask of the notes that is empty or too long.
  case invalidQuestion(String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .recordingNotFound(let id):
      "no recording \(id.prefix(8)) is under way; start a new recording"
    case .recordingFinished(let id):
      "recording \(id.prefix(8)) has already stopped; start a new recording"
    case .invalidAudio(let detail):
      "\(detail); send 16-bit little-endian mono PCM at 16 kHz"
    case .nothingToRetry(let id):
      "note \(id.prefix(8)) is finished; there is nothing to retry (`voicenotes analyze \(id.prefix(8))` analyses it again)"
    case .invalidTitle(let detail):
      "\(detail); give a title of 1 to 200 characters"
    case .noTranscript(let id):
      "note \(id.prefix(8)) has no transcript yet; wait for it to be transcribed, or retry it"
    case .unknownModel(let name, let known):
      "no model is called '\(name)'; choose one of: \(known.joined(separator: ", "))"
    case .samplesMissing(let path):
      "\(path): no sample recordings there; reinstall VoiceNotes or pass the samples folder"
    case .speakerNotFound(let id, let number, let count):
      count == 0
        ? "note \(id.prefix(8)) has no speakers told apart (one voice, or not diarized); there is no speaker \(number)"
        : "note \(id.prefix(8)) has speakers 1 to \(count), not \(number); `voicenotes show \(id.prefix(8))` shows them"
    case .voiceNotFound(let name):
      "no speaker is called '\(name)'; `voicenotes speakers list` shows the named speakers"
    case .voiceExists(let name):
      "a speaker is already called '\(name)'; choose another name, or merge the two with `voicenotes speakers merge`"
    case .invalidSpeakerName(let detail):
      "\(detail); give a name of 1 to 80 characters, such as Priya"
    case .semanticIndexUnavailable:
      "search by meaning needs the embedding model; run `voicenotes models install minilm`"
    case .semanticIndexEmpty:
      "no note is indexed for search by meaning yet; run `voicenotes resume` to index the library"
    case .semanticScope(let scope):
      "search by meaning looks in transcripts, summaries and action items, not in \(scope.lowercased()); search \(scope.lowercased()) by keyword"
    case .invalidQuestion(let detail):
      "\(detail); ask a question of 1 to 500 characters"
    }
  }
}
