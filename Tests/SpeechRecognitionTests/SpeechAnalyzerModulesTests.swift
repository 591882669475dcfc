import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing

/// `SpeechAnalyzer.setModules(_:)`: changing the modules before the input and while it arrives.
@Suite("SpeechAnalyzer.setModules", .serialized, .timeLimit(.minutes(2)))
struct SpeechAnalyzerModulesTests {
  @Test("modules set before the input are the ones that run, as Apple's SpeechDetector docs write it")
  func beforeInput() async throws {
    let unused = SpeechDetector()
    let speechDetector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
    let analyzer = SpeechAnalyzer(modules: [unused])
    try await analyzer.setModules([speechDetector])
    let modules = await analyzer.modules
    #expect(modules.count == 1 && (modules.first as? SpeechDetector) === speechDetector)
    let results = Arrivals.collect(speechDetector.results)
    try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    let stretches = try await results.value.results.map(\.result)
    #expect(stretches.contains { $0.speechDetected })
    #expect(
      abs((stretches.last?.range.end.seconds ?? 0) - 11) < 0.1,
      "the whole file: \(stretches.last?.range.end.seconds ?? 0)")
  }

  @Test("mid-stream, a removed module's results end where it left and an added one starts from there")
  func whileLive() async throws {
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    let half = audio.frameLength / 2
    let first = SpeechDetector()
    let second = SpeechDetector()
    let firstResults = Arrivals.collect(first.results)
    let secondResults = Arrivals.collect(second.results)
    let analyzer = SpeechAnalyzer(modules: [first])
    let (inputs, input) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: inputs)
    for start in stride(from: 0, to: half, by: 1_600) {
      input.yield(AnalyzerInput(buffer: AVAudioPCMBuffer(audio.frames(start..<min(start + 1_600, half)))))
    }
    let switchTime = CMTime(value: Int64(half), timescale: 16_000)
    try await analyzer.finalize(through: switchTime)
    try await analyzer.setModules([second])

    // The removed detector's stream has ended, covering only the first half.
    let before = try await firstResults.value.results.map(\.result)
    #expect(!before.isEmpty)
    #expect(before.allSatisfy { $0.range.end <= switchTime })

    for start in stride(from: half, to: audio.frameLength, by: 1_600) {
      input.yield(AnalyzerInput(buffer: AVAudioPCMBuffer(audio.frames(start..<min(start + 1_600, audio.frameLength)))))
    }
    input.finish()
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    let after = try await secondResults.value.results.map(\.result)
    // Audio reaches the modules in whole 32 ms voice-activity windows: the removed detector heard
    // up to the last whole window before the switch, and the added one hears from there on.
    let handOver = try #require(before.last?.range.end)
    #expect(after.first?.range.start == handOver, "the added detector starts where the removed one stopped")
    #expect(handOver <= switchTime && switchTime.seconds - handOver.seconds < 0.032)
    #expect(after.contains { $0.speechDetected }, "and hears the speech after it")
    #expect(abs((after.last?.range.end.seconds ?? 0) - audio.duration) < 0.001)
  }
}
