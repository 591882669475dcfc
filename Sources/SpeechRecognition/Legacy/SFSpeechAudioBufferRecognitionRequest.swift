import AudioIO
import Foundation
import Synchronization

/// A request to recognize live audio that the app appends buffer by buffer, typically from an
/// `AVAudioEngine` tap, then ends with ``endAudio()``.
///
/// Buffers may come in any rate and channel count; they are converted to what the recognizer
/// reads as they are appended. Appending is safe from any thread.
public final class SFSpeechAudioBufferRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
  private struct Feed {
    var converter: AudioConverter?
    var position = 0
    var ended = false
  }
  private let feed = Mutex(Feed())
  let input: AsyncStream<AnalyzerInput>
  private let continuation: AsyncStream<AnalyzerInput>.Continuation
  /// Measures the voice in the audio appended, for the final result's voice analytics.
  let voice = VoiceAnalyticsMeter()

  /// An empty request, ready for audio.
  public override init() {
    (input, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    super.init()
  }

  /// The format recognition prefers: 16 kHz mono (other formats are converted).
  public var nativeAudioFormat: AVAudioFormat { .speechAnalysis }

  /// Adds `buffer` to the audio to recognize; ignored after ``endAudio()``.
  public func append(_ buffer: AVAudioPCMBuffer) {
    append(buffer.audioBuffer)
  }

  /// Adds `buffer` (our value type) to the audio to recognize; ignored after ``endAudio()``.
  public func append(_ buffer: AudioBuffer) {
    feed.withLock { feed in
      guard !feed.ended, buffer.frameLength > 0 else { return }
      var converted = buffer
      if buffer.format != .speechAnalysis {
        if feed.converter?.inputFormat != buffer.format {
          feed.converter = try? AudioConverter(from: buffer.format, to: .speechAnalysis)
        }
        guard let converter = feed.converter else { return }
        converted = converter.convert(buffer)
      }
      let start = CMTime(value: Int64(feed.position), timescale: Int32(AudioFormat.speechAnalysis.sampleRate))
      feed.position += converted.frameLength
      voice.append(converted.samples)
      continuation.yield(AnalyzerInput(buffer: converted, bufferStartTime: start))
    }
  }

  /// Says that no more audio will come: the task finishes the speech it has and delivers its
  /// final result.
  public func endAudio() {
    feed.withLock { feed in
      guard !feed.ended else { return }
      feed.ended = true
      if let tail = feed.converter?.finish(), tail.frameLength > 0 {
        voice.append(tail.samples)
        continuation.yield(AnalyzerInput(buffer: tail))
      }
      continuation.finish()
    }
  }
}
