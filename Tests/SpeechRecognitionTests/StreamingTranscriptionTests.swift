import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

/// Live transcription: AnalyzerInput buffers in, volatile then final results out, over real speech
/// with the real models.
@Suite("Streaming transcription", .serialized)
struct StreamingTranscriptionTests {
  let english = Locale(identifier: "en_US")

  /// Transcribes `file` through the file path: the accurate reference for the live path.
  func fileTranscript(_ file: URL, model: SpeechModel) async throws -> String {
    let transcriber = SpeechTranscriber(model: model, locale: english)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: file), finishAfterFile: true)
    var text: [String] = []
    for try await result in transcriber.results { text.append(result.plainText) }
    return text.joined(separator: " ")
  }

  /// Feeds `feed` to a new live transcriber of `model` and returns everything it published.
  func transcribeLive(
    _ feed: LiveFeed, model: SpeechModel, reporting: Set<SpeechTranscriber.ReportingOption> = [.volatileResults],
    attributes: Set<SpeechTranscriber.ResultAttributeOption> = []
  ) async throws -> Arrivals<SpeechTranscriber.Result> {
    let transcriber = SpeechTranscriber(
      model: model, locale: english, reportingOptions: reporting, attributeOptions: attributes)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let arrivals = Arrivals.collect(transcriber.results)
    try await analyzer.start(inputSequence: feed.inputs)
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    return try await arrivals.value
  }

  @Test("real speech at real-time pace: finals match the file transcription, volatile results come first")
  func realTimePassage() async throws {
    let folder = Fixtures.temporaryFolder("live")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.standard(in: folder)
    let reference = try await fileTranscript(passage.file, model: .base)

    let feed = LiveFeed(passage.audio)
    let arrivals = try await transcribeLive(feed, model: .base)
    let results = arrivals.results.map(\.result)
    let finals = results.filter(\.isFinal)
    let live = finals.map(\.plainText).joined(separator: " ")
    let rate = WordErrorRate(reference: reference, hypothesis: live)
    print("file: \(reference)\nlive: \(live)\nWER live vs file: \(rate)")
    #expect(rate.rate <= 0.05, "WER \(rate)")
    #expect(WordErrorRate(reference: passage.reference, hypothesis: live).rate <= 0.06)

    // Finals follow one another without overlapping and cover every loud moment of speech.
    try #require(finals.count >= passage.pieces.count)
    for (previous, next) in zip(finals, finals.dropFirst()) {
      #expect(next.range.start >= previous.range.end, "\(next.range) overlaps \(previous.range)")
    }
    let covered = finals.map { ($0.range.start.seconds - 0.05)...($0.range.end.seconds + 0.05) }
    let uncovered = passage.loudFrames.filter { frame in
      let middle = Double(frame.lowerBound + frame.count / 2) / Double(SpokenPassage.sampleRate)
      return !covered.contains { $0.contains(middle) }
    }
    #expect(
      uncovered.isEmpty,
      "\(uncovered.count) loud frames outside every final, first at \(uncovered.first.map { Double($0.lowerBound) / 16_000 } ?? 0) s"
    )

    // Volatile results come before the final for their audio and start where it starts, so a
    // client can replace them exactly; every utterance of some length had some.
    for (index, result) in results.enumerated() where !result.isFinal {
      let final = try #require(
        results[index...].first {
          $0.isFinal && $0.range.start <= result.range.start && result.range.start < $0.range.end
        },
        "no final after the volatile result for \(result.range)")
      #expect(final.range.start == result.range.start)
      #expect(result.resultsFinalizationTime == result.range.start)
    }
    for (index, final) in results.enumerated() where final.isFinal && final.range.duration.seconds > 2.5 {
      #expect(
        results[..<index].contains { !$0.isFinal && $0.range.start == final.range.start },
        "no volatile result before the final for \(final.range)")
    }
    #expect(results.contains { !$0.isFinal })
    report(latencies(arrivals, feed: await feed.handedOver.value, frames: feed.frames, passage: passage), model: "base")
  }

  @Test("speech without pauses: words become final as they become stable, not at the end, and read as the file does")
  func continuousSpeech() async throws {
    let folder = Fixtures.temporaryFolder("continuous")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Three LibriVox utterances 0.1 s apart: 15 s of reading with no pause that ends an utterance.
    let passage = try SpokenPassage.make(Array(Fixtures.librivox.prefix(3)), pause: 0.1, in: folder)
    let reference = try await fileTranscript(passage.file, model: .base)

    let feed = LiveFeed(passage.audio)
    let arrivals = try await transcribeLive(feed, model: .base)
    let handedOver = await feed.handedOver.value
    let finals = arrivals.results.filter(\.result.isFinal)
    let live = finals.map(\.result.plainText).joined(separator: " ")
    let rate = WordErrorRate(reference: reference, hypothesis: live)
    print("file: \(reference)\nlive: \(live)\nWER live vs file: \(rate)")
    print(finals.map { "\($0.result.range): \($0.result.plainText)" }.joined(separator: "\n"))
    #expect(rate.rate <= 0.03, "WER \(rate)")

    // Words were made final while the reading went on: before the last 100 ms of audio was handed
    // over, most of the text was final, each result within 4 s of the end of its audio.
    let end = try #require(handedOver.last)
    let early = finals.filter { $0.instant < end }
    let earlyWords = early.map { WordErrorRate.normalizedWords($0.result.plainText).count }.reduce(0, +)
    #expect(
      Double(earlyWords) >= 0.6 * Double(WordErrorRate.normalizedWords(live).count),
      "only \(earlyWords) words were final before the speech ended")
    for final in early {
      let spoken = handedOver[min(Int(final.result.range.end.seconds * 10), handedOver.count - 1)]
      #expect((final.instant - spoken) / .seconds(1) < 4, "\(final.result.range) came late")
    }
    // Results still fit together: finals follow one another, and each volatile result starts
    // where the final that replaces it starts.
    let results = arrivals.results.map(\.result)
    for (previous, next) in zip(finals, finals.dropFirst()) {
      #expect(next.result.range.start >= previous.result.range.end, "\(next.result.range) overlaps")
    }
    for (index, result) in results.enumerated() where !result.isFinal {
      let final = results[index...].first {
        $0.isFinal && $0.range.start <= result.range.start && result.range.start < $0.range.end
      }
      #expect(final?.range.start == result.range.start, "no final starts where \(result.range) does")
    }
  }

  @Test("48 kHz stereo input is converted and transcribed to the same words")
  func convertsOtherFormats() async throws {
    let mono = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    let stereo = try AudioFile(forReading: Fixtures.jfk).read(format: AudioFormat(sampleRate: 48_000, channelCount: 2))
    #expect(stereo.format.channels == 2 && stereo.frameLength > 3 * mono.frameLength - 100)
    // Buffers of 100 ms (4800 frames of two channels), four times faster than real time.
    let arrivals = try await transcribeLive(LiveFeed(stereo, speed: 4), model: .base)
    let finals = arrivals.results.map(\.result).filter(\.isFinal)
    let rate = WordErrorRate(reference: Fixtures.jfkText, hypothesis: finals.map(\.plainText).joined(separator: " "))
    #expect(rate.rate <= 0.05, "WER \(rate): \(finals.map(\.plainText))")
    // The times are those of the audio: jfk.wav lasts 11 s.
    let end = try #require(finals.last?.range.end.seconds)
    #expect(end > 9.5 && end <= 11.1)
  }

  @Test("ending the input mid-word still transcribes the audio up to the cut")
  func stopMidWord() async throws {
    // "... ask what you can do for your coun|try": cut in the middle of the last word, with no
    // pause before it, so the last utterance is still open when the input ends.
    let transcriber = SpeechTranscriber(
      model: .base, locale: english, reportingOptions: [], attributeOptions: [.audioTimeRange])
    try await SpeechAnalyzer(modules: [transcriber]).start(
      inputAudioFile: try AudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    var words: [CMTimeRange] = []
    for try await result in transcriber.results { words += result.text.runs.compactMap(\.audioTimeRange) }
    let country = try #require(words.last)
    let cut = (country.start.seconds + country.end.seconds) / 2
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    let clipped = audio.frames(0..<Int(cut * 16_000))

    let arrivals = try await transcribeLive(LiveFeed(clipped, speed: 4), model: .base, reporting: [])
    let finals = arrivals.results.map(\.result)
    #expect(finals.allSatisfy { $0.isFinal }, "volatile results were not asked for")
    let last = try #require(finals.last)
    // The last final reaches the very last sample given...
    #expect(abs(last.range.end.seconds - clipped.duration) < 0.001, "last final ends at \(last.range.end)")
    // ...and holds the words just before the cut, which no pause had finalised.
    let spoken = WordErrorRate.normalizedWords(finals.map(\.plainText).joined(separator: " "))
    let expected = Array(WordErrorRate.normalizedWords(Fixtures.jfkText).dropLast())
    let rate = WordErrorRate(
      reference: expected.joined(separator: " "), hypothesis: spoken.prefix(expected.count).joined(separator: " "))
    #expect(rate.rate <= 0.05, "\(spoken)")
    #expect(WordErrorRate.normalizedWords(last.plainText).suffix(3).contains("your"), "\(last.plainText)")
  }

  @Test("buffer start times place the audio on the timeline; a gap is silence")
  func bufferStartTimes() async throws {
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    // The speech starts 5 s into the input's timeline, and every buffer says where it lies.
    let arrivals = try await transcribeLive(
      LiveFeed(audio, speed: nil, startTimes: true, offset: 5), model: .base, reporting: [],
      attributes: [.audioTimeRange])
    let finals = arrivals.results.map(\.result)
    let first = try #require(finals.first)
    #expect(first.range.start.seconds >= 5 - 0.31, "first final at \(first.range)")
    let firstWord = try #require(first.text.runs.compactMap(\.audioTimeRange).first)
    #expect(firstWord.start.seconds > 5 && firstWord.start.seconds < 6, "first word at \(firstWord.start)")
    let rate = WordErrorRate(reference: Fixtures.jfkText, hypothesis: finals.map(\.plainText).joined(separator: " "))
    #expect(rate.rate <= 0.05, "WER \(rate)")
  }

  @Test("without volatileResults only finals are published; analyzeSequence returns the end of the input")
  func finalsOnly() async throws {
    let folder = Fixtures.temporaryFolder("finals")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.make(Array(Fixtures.librivox.prefix(2)), pause: 1, in: folder)
    let transcriber = SpeechTranscriber(model: .base, locale: english, reportingOptions: [])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let arrivals = Arrivals.collect(transcriber.results)
    let end = try await analyzer.analyzeSequence(LiveFeed(passage.audio, speed: 4).inputs)
    #expect(abs((end?.seconds ?? 0) - passage.audio.duration) < 0.001, "\(String(describing: end))")
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    let results = try await arrivals.value.results.map(\.result)
    #expect(!results.isEmpty && results.allSatisfy { $0.isFinal })
    let rate = WordErrorRate(reference: passage.reference, hypothesis: results.map(\.plainText).joined(separator: " "))
    #expect(rate.rate <= 0.1, "WER \(rate)")
  }

  @Test("finalize(through: nil) makes the speech so far final without waiting for a pause")
  func finalizeWithoutPause() async throws {
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    let transcriber = SpeechTranscriber(model: .base, locale: english, reportingOptions: [.volatileResults])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: inputs)
    // The first 6 s, mid-sentence: "... ask not what your cou".
    continuation.yield(AnalyzerInput(buffer: audio.frames(0..<96_000)))
    var results = transcriber.results.makeAsyncIterator()
    // Wait until the analyzer has heard the last of it: a volatile result reaching past 5.5 s.
    var heard: [SpeechTranscriber.Result] = []
    while let result = try await results.next() {
      heard.append(result)
      if !result.isFinal && result.range.end.seconds > 5.5 { break }
    }
    try await analyzer.finalize(through: nil)
    // Everything heard is final now; the rest of the speech follows as usual.
    continuation.yield(AnalyzerInput(buffer: audio.frames(96_000..<audio.frameLength)))
    continuation.finish()
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    while let result = try await results.next() { heard.append(result) }
    let finals = heard.filter(\.isFinal)
    let split = try #require(finals.firstIndex { $0.range.end.seconds >= 5.9 })
    #expect(abs(finals[split].range.end.seconds - 6) < 0.05, "\(finals[split].range)")
    // The phrases before the cut are final by then; those after it follow. (What Whisper makes of
    // the fragment of a phrase either side of the cut varies.)
    let before = WordErrorRate.normalizedWords(finals[...split].map(\.plainText).joined(separator: " "))
    let after = WordErrorRate.normalizedWords(finals[(split + 1)...].map(\.plainText).joined(separator: " "))
    #expect(before.starts(with: ["and", "so", "my", "fellow", "americans", "ask", "not"]), "\(before)")
    #expect(after.suffix(8) == ["ask", "what", "you", "can", "do", "for", "your", "country"], "\(after)")
  }

  @Test("cancelAndFinishNow stops the analysis and ends the results while input still flows")
  func cancel() async throws {
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    let transcriber = SpeechTranscriber(model: .base, locale: english, reportingOptions: [.volatileResults])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let feed = LiveFeed(audio)
    try await analyzer.start(inputSequence: feed.inputs)
    var results = transcriber.results.makeAsyncIterator()
    let first = try await results.next()
    #expect(first != nil)
    await analyzer.cancelAndFinishNow()
    // The stream ends although the input has not.
    var after = 0
    while try await results.next() != nil { after += 1 }
    #expect(after <= 1)
    feed.handedOver.cancel()
  }

  @Test("an analyzer takes one input, and a missing model fails at start with the install command")
  func misuse() async throws {
    let empty = Fixtures.temporaryFolder("no-models")
    defer { try? FileManager.default.removeItem(at: empty) }
    let missing = SpeechTranscriber(model: .base, locale: english, modelDirectory: ModelDirectory(url: empty))
    let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    continuation.finish()
    await #expect(throws: SpeechTranscriptionError.modelNotInstalled(model: "base")) {
      try await SpeechAnalyzer(modules: [missing]).start(inputSequence: inputs)
    }
    await #expect(throws: SpeechTranscriptionError.self) { for try await _ in missing.results {} }

    let transcriber = SpeechTranscriber(model: .tinyEnglish, locale: english)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputSequence: inputs)
    await #expect(throws: SpeechTranscriptionError.self) { try await analyzer.start(inputSequence: inputs) }
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    var count = 0
    for try await _ in transcriber.results { count += 1 }
    #expect(count == 0)
  }

  @Test(
    "latency of volatile and final text with tiny.en and base (set VOICENOTES_LIVE_LATENCY=1 to run)",
    .enabled(if: ProcessInfo.processInfo.environment["VOICENOTES_LIVE_LATENCY"] != nil))
  func latency() async throws {
    let folder = Fixtures.temporaryFolder("latency")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.standard(in: folder)
    for model in [SpeechModel.tinyEnglish, .base] {
      let feed = LiveFeed(passage.audio)
      let processor = processorSeconds()
      let clock = ContinuousClock()
      let start = clock.now
      let arrivals = try await transcribeLive(feed, model: model)
      let wall = (clock.now - start) / .seconds(1)
      let cpu = processorSeconds() - processor
      let audio = passage.audio.duration
      var figures = latencies(arrivals, feed: await feed.handedOver.value, frames: feed.frames, passage: passage)
      figures.summary += String(
        format: "; CPU %.1f s for %.1f s of audio (%.2f CPU-s per s), wall %.1f s", cpu, audio, cpu / audio, wall)
      report(figures, model: model.name)
    }
  }

  /// Delays measured against the pieces' speech: from the moment the buffer holding a piece's
  /// first loud sound was handed over to the first volatile result covering it, and from the
  /// buffer holding its last loud sound to the final result covering that.
  func latencies(
    _ arrivals: Arrivals<SpeechTranscriber.Result>, feed: [ContinuousClock.Instant], frames: Int,
    passage: SpokenPassage
  ) -> (volatile: [Double], final: [Double], summary: String) {
    var volatile: [Double] = []
    var final: [Double] = []
    for piece in passage.pieces {
      let onset = Double(piece.speech.lowerBound) / Double(SpokenPassage.sampleRate)
      let offset = Double(piece.speech.upperBound) / Double(SpokenPassage.sampleRate)
      let heardOnset = feed[min(piece.speech.lowerBound / frames, feed.count - 1)]
      let heardOffset = feed[min(piece.speech.upperBound / frames, feed.count - 1)]
      if let first = arrivals.results.first(where: {
        !$0.result.isFinal && $0.result.range.end.seconds > onset
      }) {
        volatile.append((first.instant - heardOnset) / .seconds(1))
      }
      if let last = arrivals.results.first(where: {
        $0.result.isFinal && $0.result.range.end.seconds >= offset
      }) {
        final.append((last.instant - heardOffset) / .seconds(1))
      }
    }
    let summary = String(
      format: "median first volatile %.2f s after speech (n=%d), final %.2f s after speech ends (n=%d)",
      median(volatile) ?? .nan, volatile.count, median(final) ?? .nan, final.count)
    return (volatile, final, summary)
  }

  func report(_ figures: (volatile: [Double], final: [Double], summary: String), model: String) {
    print("live latency, \(model): \(figures.summary)")
    print("  volatile: \(figures.volatile.map { String(format: "%.2f", $0) }.joined(separator: " "))")
    print("  final:    \(figures.final.map { String(format: "%.2f", $0) }.joined(separator: " "))")
  }
}
