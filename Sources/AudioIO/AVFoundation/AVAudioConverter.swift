import Foundation

/// Converts audio between rates and channel layouts with AVFoundation's shape: the output buffer
/// is filled from an input block that hands over buffers as the converter asks for them.
///
/// The work is done by ``AudioConverter`` (FFmpeg's resampler) on floats; buffers of 16- or
/// 32-bit integers are converted to and from floats at the edges. Differences on Linux:
/// ``primeMethod`` and
/// ``sampleRateConverterQuality`` are kept but do not change the result, since the resampler
/// primes itself so that a stream converted piece by piece matches one converted whole.
public final class AVAudioConverter: @unchecked Sendable {
  /// How a converter primes its filter (kept for compatibility; see the type's notes).
  public enum PrimeMethod: Int, Sendable {
    /// Primes with leading and trailing frames.
    case pre = 0
    /// Primes with leading frames only.
    case normal = 1
    /// Does not prime.
    case none = 2
  }

  /// What an input block says about the buffer it returns.
  public enum InputStatus: Int, Sendable {
    /// The returned buffer holds audio.
    case haveData = 0
    /// No audio is available right now; more may come in a later call.
    case noDataNow = 1
    /// The stream has ended.
    case endOfStream = 2
  }

  /// What a conversion call produced.
  public enum OutputStatus: Int, Sendable {
    /// The output buffer holds converted audio (it may not be full when the input ran dry).
    case haveData = 0
    /// The input block had no data now and nothing more could be produced.
    case inputRanDry = 1
    /// The input ended and everything has been delivered.
    case endOfStream = 2
    /// The conversion failed; the error pointer says why.
    case error = 3
  }

  /// The block a conversion call asks for input: it gets the number of packets (frames) wanted and
  /// sets the status, returning a buffer when the status is `.haveData`.
  public typealias InputBlock = (AVAudioPacketCount, UnsafeMutablePointer<InputStatus>) -> AVAudioBuffer?

  /// The format of the audio the input block provides.
  public let inputFormat: AVAudioFormat
  /// The format of the audio written to output buffers.
  public let outputFormat: AVAudioFormat
  /// How to prime the converter (kept for compatibility; see the type's notes).
  public var primeMethod: PrimeMethod = .normal
  /// The resampler's quality, 0...127 as Core Audio counts it (kept for compatibility).
  public var sampleRateConverterQuality: Int = 96
  private var converter: AudioConverter
  private var pending: AudioBuffer
  private var ended = false

  /// A converter from `inputFormat` to `outputFormat`, or nil when the formats cannot be
  /// converted (a channel count FFmpeg has no layout for).
  public init?(from inputFormat: AVAudioFormat, to outputFormat: AVAudioFormat) {
    guard let converter = try? AudioConverter(from: inputFormat.floatFormat, to: outputFormat.floatFormat) else {
      return nil
    }
    self.inputFormat = inputFormat
    self.outputFormat = outputFormat
    self.converter = converter
    pending = AudioBuffer(format: outputFormat.floatFormat)
  }

  /// Forgets the stream so far, so the converter can start another one.
  public func reset() {
    if let fresh = try? AudioConverter(from: inputFormat.floatFormat, to: outputFormat.floatFormat) {
      converter = fresh
    }
    pending = AudioBuffer(format: outputFormat.floatFormat)
    ended = false
  }

  /// Fills `outputBuffer` with converted audio, asking `inputBlock` for input as it needs it.
  ///
  /// Returns `.haveData` once the output buffer is full or the input has no data now after some
  /// output; `.inputRanDry` when nothing could be produced; `.endOfStream` when the input ended and
  /// all of it has been delivered; `.error` (with `outError` set) for a buffer in the wrong format.
  /// Audio that does not fit is kept for the next call, so nothing is dropped.
  public func convert(
    to outputBuffer: AVAudioPCMBuffer, error outError: UnsafeMutablePointer<NSError?>?,
    withInputFrom inputBlock: InputBlock
  ) -> OutputStatus {
    guard outputBuffer.format == outputFormat else {
      outError?.pointee = Self.error(
        "the output buffer is \(outputBuffer.format), the converter writes \(outputFormat)")
      return .error
    }
    outputBuffer.frameLength = 0
    while true {
      flushPending(into: outputBuffer)
      if outputBuffer.frameLength == outputBuffer.frameCapacity { return .haveData }
      if ended { return outputBuffer.frameLength > 0 || pending.frameLength > 0 ? .haveData : .endOfStream }
      let wanted = AVAudioPacketCount(
        (Double(outputBuffer.frameCapacity - outputBuffer.frameLength) * inputFormat.sampleRate
          / outputFormat.sampleRate).rounded(.up))
      var status = InputStatus.noDataNow
      let input = inputBlock(wanted, &status)
      switch status {
      case .haveData:
        guard let pcm = input as? AVAudioPCMBuffer, pcm.format == inputFormat else {
          outError?.pointee = Self.error("the input block returned audio that is not \(inputFormat) PCM")
          return .error
        }
        pending.samples += converter.convert(pcm.audioBuffer).samples
      case .noDataNow:
        return outputBuffer.frameLength > 0 ? .haveData : .inputRanDry
      case .endOfStream:
        pending.samples += converter.finish().samples
        ended = true
      }
    }
  }

  /// Converts `inputBuffer` into `outputBuffer` in one call, for formats of the same sample rate
  /// (as Apple's does; use the block form to change rates).
  ///
  /// - Throws: an `NSError` when the rates differ or the output buffer is too small.
  public func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
    guard inputFormat.sampleRate == outputFormat.sampleRate else {
      throw Self.error("convert(to:from:) converts channels only; use convert(to:error:withInputFrom:) to change rates")
    }
    guard inputBuffer.frameLength <= outputBuffer.frameCapacity else {
      throw Self.error(
        "the output buffer holds \(outputBuffer.frameCapacity) frames, the input has \(inputBuffer.frameLength)")
    }
    var error: NSError?
    var given = false
    _ = convert(to: outputBuffer, error: &error) { _, status in
      defer { given = true }
      status.pointee = given ? .noDataNow : .haveData
      return given ? nil : inputBuffer
    }
    if let error { throw error }
  }

  private func flushPending(into outputBuffer: AVAudioPCMBuffer) {
    guard pending.frameLength > 0 else { return }
    let taken = outputBuffer.append(pending.frames(0..<Int(outputBuffer.frameCapacity - outputBuffer.frameLength)))
    pending = pending.frames(taken..<pending.frameLength)
  }

  private static func error(_ message: String) -> NSError {
    NSError(domain: "AVAudioConverter", code: -50, userInfo: [NSLocalizedDescriptionKey: message])
  }
}

/// `AVAudioConverterPrimeMethod` on Apple's platforms.
public typealias AVAudioConverterPrimeMethod = AVAudioConverter.PrimeMethod
/// `AVAudioConverterInputStatus` on Apple's platforms.
public typealias AVAudioConverterInputStatus = AVAudioConverter.InputStatus
/// `AVAudioConverterOutputStatus` on Apple's platforms.
public typealias AVAudioConverterOutputStatus = AVAudioConverter.OutputStatus
/// `AVAudioConverterInputBlock` on Apple's platforms.
public typealias AVAudioConverterInputBlock = AVAudioConverter.InputBlock
