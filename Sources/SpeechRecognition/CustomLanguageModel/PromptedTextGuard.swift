import Foundation

/// Keeps Whisper's prompt from making general speech worse: a decode primed with a custom
/// language model's prompt is compared word by word with a decode of the same audio without the
/// prompt, and a difference is kept only where it brings in a word of the model.
///
/// A prompt helps Whisper spell names and jargon, but it also nudges unrelated words (measured on
/// the LibriVox utterances: "ill-disposed" became "ill-sposed" with a list of names as the prompt).
/// With the guard, every change the prompt makes adds a vocabulary word that the unprompted text
/// did not have at that place; all other text is the unprompted decode's.
struct PromptedTextGuard: Sendable {
  /// The model's words, lowercased (multi-word terms split into their words).
  let vocabularyWords: Set<String>

  /// A guard for `model`'s terms.
  init(model: SpeechLanguageModel) {
    vocabularyWords = Set(model.vocabulary.terms.flatMap { CommandGrammar.words(in: $0.text) })
  }

  /// How far apart (in words) the two decodes may drift while being aligned.
  static let band = 48

  /// The unprompted words, `plain` (grouped by segment), with the prompted decode's words put in
  /// where they differ and bring in a vocabulary word. Each changed run goes to the segment of the
  /// first plain word it replaces (an inserted run, to the segment of the word before it).
  func merge(plain: [[WhisperSegment.Token]], prompted: [WhisperSegment.Token]) -> [[WhisperSegment.Token]] {
    let words = plain.flatMap { $0 }
    // Nothing to compare with (silence, as the unprompted decode heard it): keep that.
    guard !words.isEmpty else { return plain }
    var segmentOf: [Int] = []
    for (index, segment) in plain.enumerated() { segmentOf += Array(repeating: index, count: segment.count) }
    let a = words.map { CommandGrammar.words(in: String(decoding: $0.bytes, as: UTF8.self)) }
    let b = prompted.map { CommandGrammar.words(in: String(decoding: $0.bytes, as: UTF8.self)) }

    var output = plain.map { _ in [WhisperSegment.Token]() }
    var position = 0  // next plain word to copy
    for region in Self.differences(a, b) {
      for index in position..<region.plain.lowerBound { output[segmentOf[index]].append(words[index]) }
      position = region.plain.upperBound
      let before = Set(a[region.plain].joined())
      let introduced = Set(b[region.prompted].joined()).intersection(vocabularyWords).subtracting(before)
      let segment =
        region.plain.isEmpty
        ? segmentOf[max(0, min(region.plain.lowerBound - 1, segmentOf.count - 1))]
        : segmentOf[region.plain.lowerBound]
      if !introduced.isEmpty {
        output[segment] += prompted[region.prompted]
      } else {
        for index in region.plain { output[segmentOf[index]].append(words[index]) }
      }
    }
    for index in position..<words.count { output[segmentOf[index]].append(words[index]) }
    return output
  }

  /// The runs where `a` and `b` differ, in order, from a word alignment of least edits within
  /// ``band`` of the diagonal.
  static func differences(_ a: [[String]], _ b: [[String]]) -> [(plain: Range<Int>, prompted: Range<Int>)] {
    let n = a.count
    let m = b.count
    guard n > 0, m > 0 else { return n == 0 && m == 0 ? [] : [(0..<n, 0..<m)] }
    // Row i covers columns center(i) - width ... center(i) + width.
    let width = band + abs(n - m)
    func center(_ i: Int) -> Int { i * m / n }
    let columns = 2 * width + 1
    let unreachable = Int.max / 2
    var cost = [Int](repeating: unreachable, count: (n + 1) * columns)
    func slot(_ i: Int, _ j: Int) -> Int? {
      let offset = j - center(i) + width
      return offset >= 0 && offset < columns ? i * columns + offset : nil
    }
    func value(_ i: Int, _ j: Int) -> Int { slot(i, j).map { cost[$0] } ?? unreachable }
    for i in 0...n {
      for j in max(0, center(i) - width)...min(m, center(i) + width) {
        guard let here = slot(i, j) else { continue }
        if i == 0 && j == 0 {
          cost[here] = 0
          continue
        }
        var best = unreachable
        if i > 0 && j > 0 { best = min(best, value(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1)) }
        if i > 0 { best = min(best, value(i - 1, j) + 1) }
        if j > 0 { best = min(best, value(i, j - 1) + 1) }
        cost[here] = best
      }
    }
    // Walk back from the end, marking which words of each side are matched.
    var matchedA = [Bool](repeating: false, count: n)
    var matchedB = [Bool](repeating: false, count: m)
    var i = n
    var j = m
    while i > 0 || j > 0 {
      let here = value(i, j)
      if i > 0, j > 0, a[i - 1] == b[j - 1], value(i - 1, j - 1) == here {
        matchedA[i - 1] = true
        matchedB[j - 1] = true
        i -= 1
        j -= 1
      } else if i > 0, j > 0, value(i - 1, j - 1) + 1 == here {
        i -= 1
        j -= 1
      } else if i > 0, value(i - 1, j) + 1 == here {
        i -= 1
      } else if j > 0, value(i, j - 1) + 1 == here {
        j -= 1
      } else {
        // Outside the band: give up on aligning the rest.
        break
      }
    }
    if i > 0 || j > 0 {
      for index in 0..<i { matchedA[index] = false }
      for index in 0..<j { matchedB[index] = false }
    }
    // Runs between matched pairs; matched words pair up in order.
    var regions: [(plain: Range<Int>, prompted: Range<Int>)] = []
    var x = 0
    var y = 0
    while x < n || y < m {
      if x < n, y < m, matchedA[x], matchedB[y] {
        x += 1
        y += 1
        continue
      }
      let startX = x
      let startY = y
      while x < n, !matchedA[x] { x += 1 }
      while y < m, !matchedB[y] { y += 1 }
      regions.append((startX..<x, startY..<y))
    }
    return regions
  }
}
