import Foundation

/// A request to recognize the speech in an audio file (any format FFmpeg decodes).
public final class SFSpeechURLRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
  /// The file to recognize.
  public let url: URL

  /// A request for the audio file at `url`.
  public init(url: URL) {
    self.url = url
    super.init()
  }
}
