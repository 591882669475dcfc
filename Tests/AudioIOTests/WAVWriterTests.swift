import AudioIO
import Foundation
import TestSupport
import Testing

@Suite("Writing WAV files")
struct WAVWriterTests {
  private func tone(seconds: Double, rate: Double = 16_000) -> AudioBuffer {
    let count = Int(seconds * rate)
    let samples = (0..<count).map { Float(sin(Double($0) * 2 * .pi * 440 / rate) * 0.5) }
    return AudioBuffer(format: AudioFormat(sampleRate: rate, channelCount: 1), samples: samples)
  }

  @Test("a written file reads back with the same samples", arguments: [WAVWriter.SampleEncoding.int16, .float32])
  func roundTrip(encoding: WAVWriter.SampleEncoding) throws {
    let folder = Fixtures.temporaryFolder("wav")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("tone.wav")
    let buffer = tone(seconds: 1.5)
    try WAVWriter.write(buffer, to: file, encoding: encoding)
    let read = try AudioFile(forReading: file).read()
    #expect(read.frameLength == buffer.frameLength)
    let tolerance: Float = encoding == .int16 ? 1.0 / 16_000 : 1e-6
    let worst = zip(read.samples, buffer.samples).map { abs($0 - $1) }.max() ?? 1
    #expect(worst <= tolerance, "largest difference \(worst)")
  }

  @Test("an unfinished incremental file is playable after every write")
  func incrementalWritesStayReadable() throws {
    let folder = Fixtures.temporaryFolder("wav")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("recording.wav")
    let writer = try WAVWriter(url: file, format: .speechAnalysis)
    let chunk = tone(seconds: 0.5)
    for written in 1...3 {
      try writer.write(chunk)
      // Read while the writer is still open, as a crash would leave it.
      let read = try AudioFile(forReading: file).read()
      #expect(read.frameLength == chunk.frameLength * written)
    }
    try writer.close()
    #expect(writer.framesWritten == chunk.frameLength * 3)
  }

  @Test("a write into a missing folder fails with a message naming the file")
  func writeIntoMissingFolder() {
    let file = URL(fileURLWithPath: "/nonexistent-folder/out.wav")
    #expect(throws: AudioIOError.self) { try WAVWriter.write(tone(seconds: 0.1), to: file) }
  }
}
