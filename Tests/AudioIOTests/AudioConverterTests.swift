import AudioIO
import Foundation
import Testing

@Suite("Converting audio between formats")
struct AudioConverterTests {
  private let stereo48k = AudioFormat(sampleRate: 48_000, channelCount: 2)

  /// A 440 Hz tone in both channels of `format`.
  private func tone(seconds: Double, format: AudioFormat) -> AudioBuffer {
    let frames = Int(seconds * format.sampleRate)
    var samples: [Float] = []
    samples.reserveCapacity(frames * format.channels)
    for frame in 0..<frames {
      let value = Float(sin(Double(frame) * 2 * .pi * 440 / format.sampleRate) * 0.5)
      samples.append(contentsOf: repeatElement(value, count: format.channels))
    }
    return AudioBuffer(format: format, samples: samples)
  }

  private func convertInPieces(_ buffer: AudioBuffer, pieceFrames: Int) throws -> AudioBuffer {
    let converter = try AudioConverter(from: buffer.format, to: .speechAnalysis)
    var samples: [Float] = []
    var start = 0
    while start < buffer.frameLength {
      samples += converter.convert(buffer.frames(start..<(start + pieceFrames))).samples
      start += pieceFrames
    }
    samples += converter.finish().samples
    return AudioBuffer(format: .speechAnalysis, samples: samples)
  }

  @Test("48 kHz stereo becomes 16 kHz mono of the same length and pitch")
  func resamplesAndDownmixes() throws {
    let input = tone(seconds: 2, format: stereo48k)
    let output = try convertInPieces(input, pieceFrames: 4_800)
    #expect(abs(output.frameLength - 32_000) <= 16, "got \(output.frameLength) frames")
    let crossings = zip(output.samples, output.samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
    #expect(abs(crossings - 880) <= 2, "a 440 Hz tone over 2 s rises through zero 880 times, got \(crossings)")
  }

  @Test("converting buffer by buffer equals converting in one piece")
  func streamingMatchesWhole() throws {
    let input = tone(seconds: 1, format: AudioFormat(sampleRate: 44_100, channelCount: 1))
    let whole = try convertInPieces(input, pieceFrames: input.frameLength)
    let pieces = try convertInPieces(input, pieceFrames: 441)
    #expect(whole.frameLength == pieces.frameLength)
    let worst = zip(whole.samples, pieces.samples).map { abs($0 - $1) }.max() ?? 1
    #expect(worst < 1e-4, "largest difference \(worst)")
  }

  @Test("the same format passes through unchanged")
  func identity() throws {
    let input = tone(seconds: 0.5, format: .speechAnalysis)
    let converter = try AudioConverter(from: .speechAnalysis, to: .speechAnalysis)
    #expect(converter.convert(input) == input)
    #expect(converter.finish().frameLength == 0)
  }
}
