import Foundation
import Synchronization
import VoiceNotes

/// Turns pipeline progress into progress lines that say what is happening and how long it took:
/// transcription as a percentage, analysis as tokens generated and seconds elapsed.
final class PipelineProgress: Sendable {
  private struct State {
    var stage: ProcessingState.Stage?
    var stageStarted = ContinuousClock.now
    var times: [(ProcessingState.Stage, Duration)] = []
  }

  private let progress: ProgressReporter
  private let state = Mutex(State())

  /// Progress shown through `progress`.
  init(_ progress: ProgressReporter) { self.progress = progress }

  /// What the pipeline calls with each update.
  var report: @Sendable (NotePipeline.Progress) -> Void {
    { [self] update in
      let elapsed = state.withLock { state -> Duration in
        let now = ContinuousClock.now
        if state.stage != update.stage {
          if let previous = state.stage { state.times.append((previous, now - state.stageStarted)) }
          state.stage = update.stage
          state.stageStarted = now
        }
        return now - state.stageStarted
      }
      let label = "\(update.noteID.prefix(8)) \(NoteFormatting.step(update.stage))"
      if update.isWaitingForLibrary {
        progress.status(label, detail: "waiting for another voicenotes process to finish with this library")
      } else if let tokens = update.tokens {
        progress.status(label, detail: "\(tokens) tokens, \(Self.seconds(elapsed))")
      } else {
        progress.update(label, fraction: update.fraction)
      }
    }
  }

  /// How long each step took, once the note is done: "(transcribed in 4.1 s, analysed in 8.2 s)".
  func summary() -> String {
    let times = state.withLock { state -> [(ProcessingState.Stage, Duration)] in
      if let stage = state.stage { state.times.append((stage, ContinuousClock.now - state.stageStarted)) }
      state.stage = nil
      return state.times
    }
    let parts = times.compactMap { stage, time -> String? in
      switch stage {
      case .transcribing: "transcribed in \(Self.seconds(time))"
      case .diarizing: "speakers told apart in \(Self.seconds(time))"
      case .analyzing: "analysed in \(Self.seconds(time))"
      case .indexing: "indexed for search by meaning in \(Self.seconds(time))"
      case .recording, .done: nil
      }
    }
    return parts.isEmpty ? "" : "(\(parts.joined(separator: ", ")))"
  }

  /// What became of a processed note: its title, or why it waits.
  static func outcome(_ note: VoiceNote) -> String {
    note.processing.stage == .analyzing
      ? "transcribed; analysis waits for the language model (see `voicenotes models`)"
      : NoteFormatting.terminalText(note.title)
  }

  private static func seconds(_ duration: Duration) -> String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%.1f s", seconds)
  }
}
