import Foundation
import SpeechRecognition

/// Something that happened in a ``Library``, for front ends that show it as it happens.
public enum LibraryEvent: Sendable {
  /// A note was added or changed (its stage, its analysis, a rename, a ticked task).
  case noteChanged(VoiceNote)
  /// The worker made progress on a note's current step (0...1), at most a few times a second.
  case progress(noteID: String, stage: ProcessingState.Stage, fraction: Double)
  /// A note was deleted.
  case noteDeleted(id: String)
  /// Another process changed the library: what is shown may be stale.
  case externalChange
  /// A live transcript result of a recording under way.
  case live(recordingID: String, result: SpeechTranscriber.Result)
  /// A model install moved on.
  case model(name: String, status: ModelStatus.State, stage: String, fraction: Double)
}
