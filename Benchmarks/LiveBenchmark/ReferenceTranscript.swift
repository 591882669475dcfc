import AudioIO
import Foundation
import SpeechRecognition

/// The truth the live results are measured against: the words of the input and when each ends,
/// from one careful transcription of the whole file with word times (`.audioTimeRange`).
struct ReferenceTranscript: Codable, Sendable {
  /// Quiet after a word that makes it the last word before a pause, in seconds.
  static let pauseSeconds = 1.0
  /// Quiet inside a word's time that ends the word there (Whisper sometimes stretches a word
  /// before a pause across the pause), in seconds.
  static let gapSeconds = 0.5
  /// Frames used to find where sound ends, in seconds.
  static let frameSeconds = 0.01
  /// A frame is loud when its RMS is above the loudest frame's divided by this (about -30 dB).
  static let loudnessRatio: Float = 30

  /// The audio file transcribed.
  var audio: String
  /// Its length in seconds.
  var audioSeconds: Double
  /// The model that transcribed it.
  var model: String
  /// What the file says, as the model wrote it.
  var text: String
  /// Every word, in order.
  var words: [ReferenceWord]

  /// Transcribes `url` through the file path with word times and builds the reference from it.
  ///
  /// Whisper's word times are good to a tenth of a second or so, but a word before a pause often
  /// ends late, reaching far into the silence; each word's end is therefore pulled back to the
  /// end of its last loud 10 ms frame. A word that normalizes to several (`ill-disposed`) shares
  /// its (pulled back) time among them in proportion to their lengths.
  static func transcribe(_ url: URL, model: SpeechModel) async throws -> ReferenceTranscript {
    let audio = try AudioFile(forReading: url).read(format: .speechAnalysis)
    let transcriber = SpeechTranscriber(
      model: model, locale: Locale(identifier: "en_US"), reportingOptions: [], attributeOptions: [.audioTimeRange])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: url), finishAfterFile: true)
    var spans: [(text: String, range: CMTimeRange)] = []
    var text: [String] = []
    for try await result in transcriber.results {
      text.append(String(result.text.characters))
      for run in result.text.runs {
        guard let range = run.audioTimeRange else { continue }
        spans.append((String(result.text[run.range].characters), range))
      }
    }
    let loudness = Loudness(audio.samples, frame: Int(frameSeconds * audio.format.sampleRate))
    var words: [ReferenceWord] = []
    let rate = audio.format.sampleRate
    for span in spans {
      let parts = WordMatcher.words(in: span.text)
      let letters = Double(parts.reduce(0) { $0 + $1.count })
      let whisperEnd = span.range.end.seconds
      // The span's end pulled back to the end of its sound (a span with none keeps its end: it
      // was placed early, in the silence before its speech).
      let spanEnd = loudness.soundEnd(from: span.range.start.seconds, to: whisperEnd, sampleRate: rate) ?? whisperEnd
      var start = min(span.range.start.seconds, spanEnd)
      let length = spanEnd - start
      for part in parts {
        let end = start + length * Double(part.count) / max(letters, 1)
        words.append(ReferenceWord(word: part, start: start, end: end, whisperEnd: whisperEnd, pauseAfter: false))
        start = end
      }
    }
    // A pause: quiet after the word, and the next word ends well after it (Whisper often starts
    // the first word after a pause too early, in the silence, but ends it about right).
    for index in words.indices {
      let end = words[index].end
      let quiet = loudness.firstLoudStart(from: end, to: end + pauseSeconds, sampleRate: audio.format.sampleRate) == nil
      let nextEnd = index + 1 < words.count ? words[index + 1].end : .infinity
      words[index].pauseAfter = quiet && nextEnd - end >= pauseSeconds
    }
    return ReferenceTranscript(
      audio: url.path, audioSeconds: audio.duration, model: model.name, text: text.joined(separator: " "),
      words: words)
  }
}

/// The loudness of an audio signal in short frames, to find where sound begins and ends.
struct Loudness {
  /// The RMS of each frame.
  let levels: [Float]
  /// Samples per frame.
  let frame: Int
  /// The level above which a frame counts as loud.
  let threshold: Float

  init(_ samples: [Float], frame: Int) {
    let size = max(1, frame)
    self.frame = size
    levels = stride(from: 0, to: samples.count, by: size).map { start in
      let slice = samples[start..<min(start + size, samples.count)]
      return (slice.reduce(Float(0)) { $0 + $1 * $1 } / Float(slice.count)).squareRoot()
    }
    threshold = (levels.max() ?? 0) / ReferenceTranscript.loudnessRatio
  }

  /// The end, in seconds, of the first stretch of sound between `start` and `end`: the last
  /// loud frame before the first quiet of ``ReferenceTranscript/gapSeconds`` or `end`, whichever
  /// comes first. Nil when nothing there is loud.
  func soundEnd(from start: Double, to end: Double, sampleRate: Double) -> Double? {
    let gap = Int((ReferenceTranscript.gapSeconds * sampleRate / Double(frame)).rounded(.up))
    var last: Int?
    for index in frameRange(start, end, sampleRate) {
      if levels[index] >= threshold {
        last = index
      } else if let loud = last, index - loud >= gap {
        break
      }
    }
    return last.map { min(end, Double(($0 + 1) * frame) / sampleRate) }
  }

  /// The start, in seconds, of the first loud frame that starts between `start` and `end`.
  func firstLoudStart(from start: Double, to end: Double, sampleRate: Double) -> Double? {
    let frames = frameRange(start, end, sampleRate)
    return frames.first(where: { levels[$0] >= threshold }).map { Double($0 * frame) / sampleRate }
  }

  private func frameRange(_ start: Double, _ end: Double, _ sampleRate: Double) -> Range<Int> {
    // A hair of tolerance so that a time on a frame boundary lands in the frame it starts.
    let first = max(0, Int((start * sampleRate / Double(frame) + 1e-6).rounded(.down)))
    let last = min(levels.count, Int((end * sampleRate / Double(frame) - 1e-6).rounded(.up)))
    return first..<max(first, last)
  }
}
