import Foundation

/// One word of the reference transcript: what was said and when it ended, the truth the live
/// results are measured against.
struct ReferenceWord: Codable, Sendable {
  /// The word, normalized (see ``WordMatcher/words(in:)``).
  var word: String
  /// Where the word starts in the audio, in seconds.
  var start: Double
  /// Where the word ends in the audio, in seconds (Whisper's time, trimmed to the last loud sound).
  var end: Double
  /// Where Whisper said the word ends, before trimming.
  var whisperEnd: Double
  /// Whether at least ``ReferenceTranscript/pauseSeconds`` of quiet follows (or the audio ends):
  /// the last word before a pause.
  var pauseAfter: Bool
}

/// Something the live transcriber showed: when it arrived, whether it is final, the audio it
/// covers and its text.
struct LiveEvent: Codable, Sendable {
  /// Seconds since the audio's first sample was spoken (the start of the real-time feed).
  var time: Double
  /// Whether the result is final; otherwise it is volatile and will be replaced.
  var isFinal: Bool
  /// Where the audio the result covers starts, in seconds.
  var start: Double
  /// Where the audio the result covers ends, in seconds.
  var end: Double
  /// The result's text.
  var text: String
}

/// When each reference word was shown, in seconds on the same clock as ``LiveEvent/time``.
struct WordTiming: Sendable {
  /// The first result of any kind that contained the word.
  var first: Double?
  /// The first volatile result that contained the word.
  var firstVolatile: Double?
  /// The final result that contained the word.
  var final: Double?
  /// From when on every result covering the word contained it, up to its final.
  var settled: Double?
}

/// Matches the words of live results to the reference words, in order, and says when each
/// reference word first appeared, became final and stopped changing.
///
/// The same procedure (Benchmarks/live/latency.py mirrors it line for line) is applied to
/// whisper.cpp's streaming example, so both sides are measured alike:
/// - Words are compared normalized: lowercase, no apostrophes, other punctuation as spaces,
///   bracketed annotations such as `[BLANK_AUDIO]` dropped, a few abbreviations spelled out.
/// - A result may only match reference words in the audio it covers (with ``slack`` either side)
///   and words that had begun by the time it arrived.
/// - The final results, joined, are aligned with the whole reference by edit distance; each
///   volatile result is aligned with the reference words its audio covers. An aligned pair of
///   equal words is a match.
enum WordMatcher {
  /// Leeway for the reference times, which come from Whisper's token timestamps, in seconds.
  static let slack = 0.3

  /// Abbreviations Whisper writes that a reference may spell out.
  static let abbreviations = ["mr": "mister", "mrs": "missus", "dr": "doctor"]

  /// The normalized words of `text`.
  static func words(in text: String) -> [String] {
    var plain = ""
    var depth = 0
    for character in text.lowercased() {
      switch character {
      case "[", "(": depth += 1
      case "]", ")": depth = max(0, depth - 1)
      case "'", "\u{2019}": continue
      default:
        guard depth == 0 else { continue }
        plain.append(character.isLetter || character.isNumber || character.isWhitespace ? character : " ")
      }
    }
    return plain.split(whereSeparator: \.isWhitespace).map { abbreviations[String($0)] ?? String($0) }
  }

  /// Aligns `hypothesis` with `reference` by edit distance, where a pair counts as a match only
  /// when the words are equal and `allowed(hypothesisIndex, referenceIndex)` holds. Returns the
  /// matched pairs, in order.
  static func align(_ hypothesis: [String], _ reference: [String], allowed: (Int, Int) -> Bool) -> [(Int, Int)] {
    let rows = reference.count
    let columns = hypothesis.count
    guard rows > 0, columns > 0 else { return [] }
    func matches(_ row: Int, _ column: Int) -> Bool {
      reference[row - 1] == hypothesis[column - 1] && allowed(column - 1, row - 1)
    }
    var distance = [[Int]](repeating: [Int](repeating: 0, count: columns + 1), count: rows + 1)
    for row in 0...rows { distance[row][0] = row }
    for column in 0...columns { distance[0][column] = column }
    for row in 1...rows {
      for column in 1...columns {
        let diagonal = distance[row - 1][column - 1] + (matches(row, column) ? 0 : 1)
        distance[row][column] = min(diagonal, distance[row - 1][column] + 1, distance[row][column - 1] + 1)
      }
    }
    var pairs: [(Int, Int)] = []
    var row = rows
    var column = columns
    while row > 0 && column > 0 {
      if matches(row, column) && distance[row][column] == distance[row - 1][column - 1] {
        pairs.append((column - 1, row - 1))
        row -= 1
        column -= 1
      } else if distance[row][column] == distance[row - 1][column - 1] + 1 {
        row -= 1
        column -= 1
      } else if distance[row][column] == distance[row - 1][column] + 1 {
        row -= 1
      } else {
        column -= 1
      }
    }
    return pairs.reversed()
  }

  /// Whether `event` covers `word`: their audio overlaps (with ``slack``) and the word had begun
  /// by the time the event arrived.
  static func covers(_ event: LiveEvent, _ word: ReferenceWord) -> Bool {
    word.start < event.end + slack && word.end > event.start - slack && word.start <= event.time + slack
  }

  /// When each word of `reference` was shown by `events` (in arrival order).
  static func timings(reference: [ReferenceWord], events: [LiveEvent]) -> [WordTiming] {
    var timings = [WordTiming](repeating: WordTiming(), count: reference.count)
    var matched = [Set<Int>](repeating: [], count: events.count)
    let referenceWords = reference.map(\.word)

    // Finals: all of them, joined, against the whole reference.
    var finalWords: [String] = []
    var finalOwners: [Int] = []
    for (index, event) in events.enumerated() where event.isFinal {
      let words = words(in: event.text)
      finalWords += words
      finalOwners += Array(repeating: index, count: words.count)
    }
    let finalPairs = align(finalWords, referenceWords) { hypothesis, word in
      covers(events[finalOwners[hypothesis]], reference[word])
    }
    for (hypothesis, word) in finalPairs {
      let owner = finalOwners[hypothesis]
      timings[word].final = events[owner].time
      matched[owner].insert(word)
    }

    // Volatile results: each against the reference words its audio covers.
    for (index, event) in events.enumerated() where !event.isFinal {
      let window = reference.indices.filter { covers(event, reference[$0]) }
      let pairs = align(words(in: event.text), window.map { referenceWords[$0] }) { _, _ in true }
      for (_, local) in pairs {
        let word = window[local]
        matched[index].insert(word)
        if timings[word].firstVolatile == nil { timings[word].firstVolatile = event.time }
      }
    }

    for word in reference.indices {
      let candidates = [timings[word].firstVolatile, timings[word].final].compactMap { $0 }
      timings[word].first = candidates.min()
      // Settled: the start of the unbroken run of covering results, ending with the final, that
      // all contained the word.
      guard let final = timings[word].final else { continue }
      var settled = final
      for (index, event) in events.enumerated().reversed()
      where event.time <= final && covers(event, reference[word]) {
        guard matched[index].contains(word) else { break }
        settled = event.time
      }
      timings[word].settled = settled
    }
    return timings
  }
}

/// The median of `values`, or nil when there are none.
func median(_ values: [Double]) -> Double? {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return nil }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
