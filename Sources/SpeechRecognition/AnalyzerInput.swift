import AudioIO

/// One buffer of audio for a ``SpeechAnalyzer`` reading live input, such as a microphone.
///
/// Give the analyzer an `AsyncStream` of these (or any async sequence of them, throwing or not)
/// with ``SpeechAnalyzer/start(inputSequence:)``.
/// Buffers may come in any format (they are converted to the analyzer's 16 kHz mono); a buffer
/// without a start time follows the one before it.
///
/// ```swift
/// let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
/// try await analyzer.start(inputSequence: inputSequence)
/// inputBuilder.yield(AnalyzerInput(buffer: buffer))
/// ```
public struct AnalyzerInput: Sendable, Equatable {
  /// The audio.
  public var buffer: AudioBuffer
  /// Where the buffer's first sample lies on the input's timeline, or nil when it follows the
  /// previous buffer directly. A start after the end of the previous buffer leaves a gap, which
  /// counts as silence; audio before the end of the previous buffer is dropped.
  public var bufferStartTime: CMTime?

  /// Creates an input from `buffer`, placed at `bufferStartTime` or right after the previous buffer.
  public init(buffer: AudioBuffer, bufferStartTime: CMTime? = nil) {
    self.buffer = buffer
    self.bufferStartTime = bufferStartTime
  }
  /// Input from an AVFoundation-shaped buffer (its valid frames are copied), as Apple's
  /// `AnalyzerInput(buffer:)` takes an `AVAudioPCMBuffer`.
  public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime? = nil) {
    self.init(buffer: buffer.audioBuffer, bufferStartTime: bufferStartTime)
  }

}
