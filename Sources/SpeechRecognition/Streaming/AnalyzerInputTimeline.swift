import AudioIO

/// Lays a sequence of ``AnalyzerInput`` buffers end to end as one 16 kHz mono signal.
///
/// Buffers in other formats go through an `AudioConverter` (kept from buffer to buffer, so a
/// stream converts as smoothly as one piece; replaced when the format changes). A buffer's
/// `bufferStartTime` places it on the timeline: a later start leaves silence, an earlier one
/// drops the audio already heard. One timeline serves one input sequence, from one task.
final class AnalyzerInputTimeline {
  /// What a buffer adds to the signal.
  enum Piece: Equatable {
    /// Samples, following those before.
    case audio([Float])
    /// This many samples of silence: a gap in the input.
    case silence(Int)
  }

  private let sampleRate = AudioFormat.speechAnalysis.sampleRate
  private var converter: AudioConverter?
  /// Where, in input seconds, the next buffer starts when it names no time; nil before the first.
  private var expectedStart: Double?
  /// Samples put on the timeline so far, silence included.
  private(set) var position = 0

  /// Differences in start time smaller than this (seconds) are rounding, not gaps or overlaps.
  private static let tolerance = 0.002

  /// The pieces `input` adds to the signal, in order.
  ///
  /// - Throws: `AudioIOError.unsupportedFormat` when the buffer's format cannot be converted.
  func place(_ input: AnalyzerInput) throws(AudioIOError) -> [Piece] {
    var buffer = input.buffer
    guard buffer.frameLength > 0 else { return [] }
    var pieces: [Piece] = []
    let expected = expectedStart ?? 0
    var start = input.bufferStartTime?.seconds ?? expected
    if start > expected + Self.tolerance {
      pieces += flush()
      let target = Int((start * sampleRate).rounded())
      if target > position {
        pieces.append(.silence(target - position))
        position = target
      }
    } else if start < expected - Self.tolerance {
      let heard = Int(((expected - start) * buffer.format.sampleRate).rounded())
      guard heard < buffer.frameLength else { return pieces }
      buffer = buffer.frames(heard..<buffer.frameLength)
      start = expected
    }
    expectedStart = start + buffer.duration
    if converter?.inputFormat != buffer.format {
      pieces += flush()
      converter = try AudioConverter(from: buffer.format, to: .speechAnalysis)
    }
    if let converted = converter?.convert(buffer), converted.frameLength > 0 {
      position += converted.frameLength
      pieces.append(.audio(converted.samples))
    }
    return pieces
  }

  /// The last samples the converter holds; call at the end of the input.
  func finish() -> [Piece] { flush() }

  private func flush() -> [Piece] {
    guard let converter else { return [] }
    self.converter = nil
    let tail = converter.finish()
    guard tail.frameLength > 0 else { return [] }
    position += tail.frameLength
    return [.audio(tail.samples)]
  }
}
