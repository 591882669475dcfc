import Foundation

/// An error from a recognition task, with the codes Apple's recognizer uses where they apply.
public struct SFSpeechError: LocalizedError, Sendable, Equatable {
  /// What went wrong.
  public enum Code: Int, Sendable {
    /// The task was cancelled.
    case canceled = 301
    /// The audio held no speech.
    case noSpeechDetected = 1110
    /// The request asked for something the recognizer cannot do.
    case invalidRequest = 2
  }

  /// What went wrong.
  public let code: Code

  /// An error with `code`.
  public init(_ code: Code) { self.code = code }

  /// A sentence saying what happened.
  public var errorDescription: String? {
    switch code {
    case .canceled: "Recognition request was canceled."
    case .noSpeechDetected: "No speech detected in the audio."
    case .invalidRequest: "The recognition request is not one this recognizer can handle."
    }
  }
}
