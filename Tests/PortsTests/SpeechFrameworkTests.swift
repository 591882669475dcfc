import AudioIO
import Foundation
import SpeechRecognition
import Synchronization
import TestSupport
import Testing
import VoiceNotes

/// The rest of Speech 26 that apps call, and the legacy request's contextual strings, against the engine.
@Suite("Speech 26: dictation, context, preparation, finalizing through a time", .serialized, .timeLimit(.minutes(5)))
struct SpeechFrameworkTests {
  private static let sentence = "Meeting with Anneliese Hoffmann at noon."
  private static let name = "Anneliese Hoffmann"

  private func spoken(_ text: String, in folder: URL) throws -> URL {
    let file = folder.appendingPathComponent("spoken.wav")
    try Fixtures.run(["espeak-ng", "-v", "en-us", "-s", "175", "-w", file.path, text])
    return file
  }

  private func transcribe(_ module: any SpeechModule, file: URL, context: AnalysisContext? = nil) async throws
    -> [SpeechTranscriber.Result]
  {
    let analyzer = SpeechAnalyzer(modules: [module])
    if let context { try await analyzer.setContext(context) }
    try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: file), finishAfterFile: true)
    var results: [SpeechTranscriber.Result] = []
    if let dictation = module as? DictationTranscriber {
      for try await result in dictation.results { results.append(result) }
    } else if let transcriber = module as? SpeechTranscriber {
      for try await result in transcriber.results { results.append(result) }
    }
    return results
  }

  @Test(
    "DictationTranscriber: punctuated with .shortDictation, not with .phrase; timed words with time-indexed dictation")
  func dictation() async throws {
    let locale = Locale(identifier: "en_US")
    let punctuated = try await transcribe(
      DictationTranscriber(locale: locale, preset: .shortDictation), file: Fixtures.jfk)
    let text = punctuated.map { String($0.text.characters) }.joined(separator: " ")
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text).edits == 0, "\(text)")
    #expect(text.contains(","), "\(text)")
    let phrase = try await transcribe(DictationTranscriber(locale: locale, preset: .phrase), file: Fixtures.jfk)
    let plain = phrase.map { String($0.text.characters) }.joined(separator: " ")
    #expect(!plain.contains(",") && !plain.contains("."), "\(plain)")
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: plain).edits == 0, "\(plain)")
    let timed = try await transcribe(
      DictationTranscriber(locale: locale, preset: .timeIndexedLongDictation), file: Fixtures.jfk)
    #expect(timed.flatMap { Array($0.text.runs) }.contains { $0.audioTimeRange != nil })
  }

  @Test("DictationTranscriber's customizedLanguage hint restricts recognition to the model's commands")
  func dictationWithCustomLanguage() async throws {
    let folder = Fixtures.temporaryFolder("dictation-commands")
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = SFCustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "test.commands", version: "1")
    {
      SFCustomLanguageModelData.PhraseCountsFromTemplates(classes: ["color": ["red", "blue", "green"]]) {
        SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template("Set background to <color>", count: 100)
      }
    }
    let exported = folder.appendingPathComponent("commands.bin")
    try await data.export(to: exported)
    let configuration = SFSpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("LM"), vocabulary: nil, weight: 1)
    try await SFSpeechLanguageModel.prepareCustomLanguageModel(
      for: exported, clientIdentifier: "test.commands", configuration: configuration)
    let file = try spoken("Set background to green", in: folder)
    let transcriber = DictationTranscriber(
      locale: Locale(identifier: "en_US"),
      contentHints: [.shortForm, .customizedLanguage(modelConfiguration: configuration)],
      transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
    let results = try await transcribe(transcriber, file: file)
    #expect(results.map { String($0.text.characters) } == ["Set background to green"], "\(results.map(\.text))")
    #expect(results.first?.matchedPhrase == "Set background to green")

    let broken = DictationTranscriber(
      locale: Locale(identifier: "en_US"),
      contentHints: [
        .customizedLanguage(
          modelConfiguration: SFSpeechLanguageModel.Configuration(languageModel: folder.appendingPathComponent("none")))
      ], transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
    await #expect(throws: (any Error).self) { _ = try await transcribe(broken, file: file) }
  }

  @Test("generic code over SpeechModule reads any module's results; over LocaleDependentSpeechModule, its locales")
  func genericModules() async throws {
    let english = Locale(identifier: "en_US")
    let transcriber = SpeechTranscriber(locale: english, preset: .transcription)
    let detector = SpeechDetector()
    let analyzer = SpeechAnalyzer(modules: [transcriber, detector])
    try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    async let speech = Self.finals(of: detector)
    let text = try await Self.finals(of: transcriber).map { String($0.text.characters) }.joined(separator: " ")
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text).edits == 0, "\(text)")
    #expect(try await speech.contains { $0.speechDetected }, "the detector's results, read the same way")
    let support = await Self.support(SpeechTranscriber.self, for: english)
    #expect(support.supported == Locale(identifier: "en") && support.installed)
    #expect(transcriber.selectedLocales == [english])
    #expect(await Self.support(DictationTranscriber.self, for: Locale(identifier: "tlh")).supported == nil)
  }

  /// A module's final results, whatever the module, as generic code over Speech reads them.
  private static func finals<Module: SpeechModule>(of module: Module) async throws -> [Module.Result] {
    var finals: [Module.Result] = []
    for try await result in module.results where result.isFinal { finals.append(result) }
    return finals
  }

  /// Whether a kind of module supports `locale` and has it installed.
  private static func support<Module: LocaleDependentSpeechModule>(_ module: Module.Type, for locale: Locale) async
    -> (supported: Locale?, installed: Bool)
  {
    let supported = await module.supportedLocale(equivalentTo: locale)
    let installed = await module.installedLocales.contains { $0.language.languageCode == locale.language.languageCode }
    return (supported, installed)
  }

  @Test("the volatile range runs from the first result not yet final to the input taken, and ends empty")
  func volatileRange() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    let end = CMTime(value: Int64(speech.frameLength), timescale: 16_000)
    // Live, as the input arrives: the handler hears the range grow and settle.
    let transcriber = SpeechTranscriber(
      locale: Locale(identifier: "en_US"), transcriptionOptions: [], reportingOptions: [.volatileResults],
      attributeOptions: [])
    let (input, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
    let ranges = RangeLog()
    let analyzer = try await SpeechAnalyzer(inputSequence: input, modules: [transcriber]) { range, _, _ in
      ranges.add(range)
    }
    let results = Task { for try await _ in transcriber.results {} }
    for start in stride(from: 0, to: speech.frameLength, by: 1_600) {
      builder.yield(
        AnalyzerInput(buffer: AVAudioPCMBuffer(speech.frames(start..<min(start + 1_600, speech.frameLength)))))
      try await Task.sleep(for: .milliseconds(20))
    }
    builder.finish()
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    try await results.value
    let settled = try #require(await analyzer.volatileRange)
    #expect(settled.isEmpty && settled.end == end, "\(settled)")
    let deadline = Date().addingTimeInterval(5)
    while ranges.all.last != settled, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    let seen = ranges.all
    #expect(seen.last == settled, "the handler heard the range settle: \(seen.suffix(3))")
    #expect(seen.contains { !$0.isEmpty }, "some results were volatile or pending along the way")
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.start <= $1.start && $0.end <= $1.end }, "\(seen)")

    // A file: every window's results are final once it is done.
    let fileTranscriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let fileRanges = RangeLog()
    let fileAnalyzer = SpeechAnalyzer(modules: [fileTranscriber])
    await fileAnalyzer.setVolatileRangeChangedHandler { range, _, _ in fileRanges.add(range) }
    #expect(await fileAnalyzer.volatileRange == nil, "no input yet")
    try await fileAnalyzer.start(inputAudioFile: try AVAudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    for try await _ in fileTranscriber.results {}
    let fileSettled = try #require(await fileAnalyzer.volatileRange)
    #expect(fileSettled.isEmpty && fileSettled.end == end, "\(fileSettled)")
  }

  @Test("finish(after:) ends the results once the input through that time is in, without the rest")
  func finishAfter() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    let transcriber = SpeechTranscriber(
      locale: Locale(identifier: "en_US"), transcriptionOptions: [], reportingOptions: [.volatileResults],
      attributeOptions: [])
    let (input, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
    let analyzer = try await SpeechAnalyzer(inputSequence: input, modules: [transcriber])
    let results = Task {
      var ends: [Double] = []
      for try await result in transcriber.results { ends.append(result.range.end.seconds) }
      return ends
    }
    // Input keeps coming, and never ends: finishing does not wait for it.
    let feeder = Task {
      for start in stride(from: 0, to: speech.frameLength, by: 1_600) {
        builder.yield(
          AnalyzerInput(buffer: AVAudioPCMBuffer(speech.frames(start..<min(start + 1_600, speech.frameLength)))))
        try await Task.sleep(for: .milliseconds(50))
      }
    }
    defer { feeder.cancel() }
    let started = ContinuousClock.now
    try await analyzer.finish(after: CMTime(seconds: 3, preferredTimescale: 16_000))
    let waited = ContinuousClock.now - started
    let ends = try await results.value
    #expect(waited >= .seconds(1.4) && waited < .seconds(5), "finish(after: 3 s) took \(waited) at twice real time")
    #expect(ends.allSatisfy { $0 <= 3.6 }, "no results for audio well past 3 s: \(ends)")
    // Finished: later calls do nothing and the stream stays ended.
    try await analyzer.finalize(through: nil)
  }

  @Test("cancelAnalysis(before:) drops what is pending before that time; the rest is analysed as usual")
  func cancelBefore() async throws {
    // The LibriVox utterances and jfk.wav with a second of silence around each, handed over at
    // once: the utterances' final decodes queue up behind each other.
    let pause = [Float](repeating: 0, count: 16_000)
    var samples = pause
    for recording in Fixtures.librivox.map(\.audio) + [Fixtures.jfk] {
      samples += try AudioFile(forReading: recording).read().samples + pause
    }
    let passage = AudioBuffer(format: .speechAnalysis, samples: samples)
    let cut = passage.duration - 13
    let transcriber = SpeechTranscriber(
      locale: Locale(identifier: "en_US"), transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
    let (input, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
    let analyzer = try await SpeechAnalyzer(inputSequence: input, modules: [transcriber])
    let cancelled = Mutex(false)
    let results = Task {
      var arrived: [(end: Double, afterCancel: Bool, text: String)] = []
      for try await result in transcriber.results {
        arrived.append((result.range.end.seconds, cancelled.withLock { $0 }, String(result.text.characters)))
      }
      return arrived
    }
    for start in stride(from: 0, to: passage.frameLength, by: 16_000) {
      builder.yield(
        AnalyzerInput(buffer: AVAudioPCMBuffer(passage.frames(start..<min(start + 16_000, passage.frameLength)))))
    }
    builder.finish()
    await analyzer.cancelAnalysis(before: CMTime(seconds: cut, preferredTimescale: 16_000))
    cancelled.withLock { $0 = true }
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    let arrived = try await results.value
    let late = arrived.filter { $0.afterCancel && $0.end <= cut }
    #expect(late.isEmpty, "results for audio before \(cut) s published after the cancel: \(late)")
    let after = arrived.filter { $0.end > cut }.map(\.text).joined(separator: " ")
    #expect(
      WordErrorRate.normalizedWords(after).suffix(8) == WordErrorRate.normalizedWords(Fixtures.jfkText).suffix(8),
      "the audio after the cut is transcribed as usual: \(after)")
  }

  @Test("SpeechModels.endRetention lets go of loaded models; the next analysis loads its own")
  func endRetention() async throws {
    await SpeechModels.endRetention()
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    var text = ""
    for try await result in transcriber.results { text += String(result.text.characters) }
    #expect(text.contains("ask not what your country can do for you"), "\(text)")
  }

  @Test("finalize(through:) on a file returns once results reach that time, before the file is done")
  func finalizeFile() async throws {
    let clips = try Fixtures.librivox.map { try AudioFile(forReading: $0.audio) }
    let file = try #require(clips.max { $0.duration < $1.duration })
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: file.url), finishAfterFile: false)
    let collected = ResultCollector()
    let reading = Task { for try await result in transcriber.results { collected.add(result) } }
    let cut = CMTime(seconds: 2, preferredTimescale: 1000)
    try await analyzer.finalize(through: cut)
    let atCut = collected.results
    #expect(atCut.contains { $0.range.end >= cut }, "results through \(cut) were published")
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    try await reading.value
    #expect(collected.results.count >= atCut.count)
    #expect(
      collected.results.last.map { $0.range.end.seconds > file.duration * 0.7 } == true,
      "the rest of the \(file.duration) s file came after")
  }

  @Test("the convenience initializer starts on a file with its context")
  func convenienceInitializer() async throws {
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let context = AnalysisContext()
    context.contextualStrings[.general] = ["Americans"]
    let analyzer = try await SpeechAnalyzer(
      inputAudioFile: try AVAudioFile(forReading: Fixtures.jfk), modules: [transcriber], analysisContext: context,
      finishAfterFile: true)
    var text = ""
    for try await result in transcriber.results { text += String(result.text.characters) + " " }
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text).edits == 0, "\(text)")
    #expect(await analyzer.context.contextualStrings[.general] == ["Americans"])
  }

  @Test("contextual strings (AnalysisContext, SFSpeechRecognitionRequest) spell a name base gets wrong")
  func contextualStrings() async throws {
    let folder = Fixtures.temporaryFolder("context")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try spoken(Self.sentence, in: folder)
    let locale = Locale(identifier: "en_US")
    let without = try await transcribe(SpeechTranscriber(locale: locale, preset: .transcription), file: file)
      .map { String($0.text.characters) }.joined()
    #expect(!without.contains(Self.name), "base now spells the name unaided: \(without)")

    let context = AnalysisContext()
    context.contextualStrings[.general] = [Self.name]
    let with = try await transcribe(
      SpeechTranscriber(locale: locale, preset: .transcription), file: file, context: context
    ).map { String($0.text.characters) }.joined()
    #expect(with.contains(Self.name), "\(with)")

    let recognizer = try #require(SFSpeechRecognizer(locale: locale))
    recognizer.queue = OperationQueue()
    let request = SFSpeechURLRecognitionRequest(url: file)
    request.contextualStrings = [Self.name]
    request.shouldReportPartialResults = false
    let legacy: String = try await withCheckedThrowingContinuation { continuation in
      recognizer.recognitionTask(with: request) { result, error in
        if let error { continuation.resume(throwing: error) }
        if let result, result.isFinal { continuation.resume(returning: result.bestTranscription.formattedString) }
      }
    }
    #expect(legacy.contains(Self.name), "\(legacy)")
  }

  @Test("prepareToAnalyze loads the model first; finalizeAndFinish(through:) stops at its time")
  func preparationAndFinalizing() async throws {
    let speech = try #require(Fixtures.librivox.first)
    let audio = try AudioFile(forReading: speech.audio).read()
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .progressiveTranscription)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let progress = ProgressBox()
    try await analyzer.prepareToAnalyze(in: nil, withProgressReadyHandler: { progress.set($0) })
    #expect(progress.value?.isFinished == true)

    let (input, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: input)
    for start in stride(from: 0, to: audio.frameLength, by: 1_600) {
      builder.yield(AnalyzerInput(buffer: audio.frames(start..<min(start + 1_600, audio.frameLength))))
    }
    let cut = CMTime(seconds: 3, preferredTimescale: 1000)
    try await analyzer.finalizeAndFinish(through: cut)
    var finals: [SpeechTranscriber.Result] = []
    for try await result in transcriber.results where result.isFinal { finals.append(result) }
    #expect(!finals.isEmpty)
    #expect(
      finals.allSatisfy { $0.range.start < cut }, "\(finals.map { ($0.range.start.seconds, $0.range.end.seconds) })")
    #expect(audio.duration > 6, "the clip should run well past the cut")
    builder.finish()
  }
}

/// Results read by a task, looked at from another.
nonisolated final class ResultCollector: Sendable {
  private let all = Mutex<[SpeechTranscriber.Result]>([])
  func add(_ result: SpeechTranscriber.Result) { all.withLock { $0.append(result) } }
  var results: [SpeechTranscriber.Result] { all.withLock { $0 } }
}

/// The progress a handler was given, read after the call.
nonisolated final class ProgressBox: @unchecked Sendable {
  // Progress is a class that is not Sendable; the handler hands it over once, before it is read.
  private let lock = NSLock()
  private var progress: Progress?
  func set(_ value: Progress) { lock.withLock { progress = value } }
  var value: Progress? { lock.withLock { progress } }
}

/// The volatile ranges a handler heard, across threads.
private final class RangeLog: @unchecked Sendable {
  private let lock = NSLock()
  private var ranges: [CMTimeRange] = []
  func add(_ range: CMTimeRange) { lock.withLock { ranges.append(range) } }
  var all: [CMTimeRange] { lock.withLock { ranges } }
}
