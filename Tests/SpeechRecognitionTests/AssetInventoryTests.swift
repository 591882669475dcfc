import Foundation
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

/// Installing a model: status before and after, through the real download-and-convert path.
@Suite("AssetInventory", .serialized)
struct AssetInventoryTests {
  @Test("a model goes from supported to installed, and then transcribes")
  func installTinyModel() async throws {
    let folder = Fixtures.temporaryFolder("assets")
    defer { try? FileManager.default.removeItem(at: folder) }
    let directory = ModelDirectory(url: folder)
    let transcriber = SpeechTranscriber(
      model: .tinyEnglish, locale: Locale(identifier: "en_US"), modelDirectory: directory)

    #expect(await AssetInventory.status(forModules: [transcriber]) == .supported)
    let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
    #expect(request.models == [.tinyEnglish])
    let stages = StageLog()
    try await request.downloadAndInstall { stage, fraction in stages.add(stage, fraction) }
    #expect(request.fractionCompleted == 1)
    #expect(stages.fractions == stages.fractions.sorted(), "progress only moves forward")
    #expect(stages.names.contains { $0.contains("converting") })

    #expect(await AssetInventory.status(forModules: [transcriber]) == .installed)
    #expect(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) == nil)

    // The converted file loads and works.
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    var text = ""
    for try await result in transcriber.results { text += String(result.text.characters) + " " }
    #expect(text.lowercased().contains("ask not what your country can do for you"))
  }

  @Test("progress is one Progress that advances while installing and is complete when the install returns")
  @MainActor
  func progressObject() async throws {
    let folder = Fixtures.temporaryFolder("progress")
    defer { try? FileManager.default.removeItem(at: folder) }
    let request = try #require(
      AssetInventory.assetInstallationRequest(for: .tinyEnglish, in: ModelDirectory(url: folder)))
    // Held before installing, as Apple's sample holds it for its progress view.
    let downloadProgress = request.progress
    let reporting: any ProgressReporting = request
    #expect(reporting.progress === downloadProgress && request.progress === downloadProgress)
    #expect(downloadProgress.fractionCompleted == 0 && !downloadProgress.isFinished)

    // What a progress view on the main actor sees while the install runs.
    let sampler = Task { @MainActor in
      var seen: [Double] = []
      while !Task.isCancelled {
        seen.append(downloadProgress.fractionCompleted)
        try? await Task.sleep(for: .milliseconds(5))
      }
      return seen
    }
    try await request.downloadAndInstall()
    #expect(downloadProgress.isFinished && downloadProgress.fractionCompleted == 1, "complete on return")
    #expect(downloadProgress.completedUnitCount == downloadProgress.totalUnitCount)
    sampler.cancel()
    let seen = await sampler.value
    #expect(seen.contains { $0 > 0 && $0 < 1 }, "it advanced in steps: \(Set(seen).sorted())")
    #expect(seen == seen.sorted(), "and only forward")
  }

  @Test("the 8-bit conversion is half the size and still transcribes word for word")
  func quantizedModel() async throws {
    let folder = Fixtures.temporaryFolder("q8")
    defer { try? FileManager.default.removeItem(at: folder) }
    let directory = ModelDirectory(url: folder)
    let request = try #require(AssetInventory.assetInstallationRequest(for: .baseQuantized, in: directory))
    try await request.downloadAndInstall()
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: directory.file(for: .baseQuantized).path)[.size] as? Int)
    #expect(size > 70_000_000 && size < 90_000_000, "q8_0 base is about 82 MB, got \(size)")
    let transcript = try await FileTranscriber(
      model: .baseQuantized, locale: Locale(identifier: "en"), modelDirectory: directory
    )
    .transcribe(Fixtures.jfk)
    #expect(WordErrorRate.normalizedWords(transcript.text) == WordErrorRate.normalizedWords(Fixtures.jfkText))
  }

  @Test("an unsupported language is reported as unsupported, not as a download")
  func unsupported() async throws {
    let transcriber = SpeechTranscriber(model: .tinyEnglish, locale: Locale(identifier: "ja_JP"))
    #expect(await AssetInventory.status(forModules: [transcriber]) == .unsupported)
    await #expect(throws: SpeechTranscriptionError.self) {
      _ = try await AssetInventory.assetInstallationRequest(supporting: [transcriber])
    }
  }

  @Test("the converted base model has Whisper base's shape")
  func convertedHeader() throws {
    let file = Fixtures.models.appendingPathComponent("ggml-base.bin")
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    let header = try #require(try handle.read(upToCount: 4 * 14))
    let values = (0..<14).map { index in
      header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 4, as: Int32.self) }
    }
    #expect(UInt32(bitPattern: values[0]) == 0x6767_6d6c)
    // n_vocab, audio ctx/state/heads/layers, text ctx/state/heads/layers, mels, ftype
    #expect(Array(values[1...11]) == [51865, 1500, 512, 8, 6, 448, 512, 8, 6, 80, 1])
    // Mel filters: 80 rows of 201 FFT bins.
    #expect(Array(values[12...13]) == [80, 201])
  }
}

/// Collects progress reports from the installer's thread.
final class StageLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [(String, Double)] = []

  func add(_ stage: String, _ fraction: Double) {
    lock.withLock { entries.append((stage, fraction)) }
  }

  var names: [String] { lock.withLock { entries.map(\.0) } }
  var fractions: [Double] { lock.withLock { entries.map(\.1) } }
}
