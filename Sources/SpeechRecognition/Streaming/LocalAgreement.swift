/// Which words of a live utterance have stopped changing: the words after those already committed
/// that the newest decode and the ones just before it all read, in the same order (the
/// LocalAgreement rule of whisper_streaming).
///
/// Live decoding reads the same growing audio again and again; a word can change while it is
/// still being spoken, but once several decodes, each with more audio, read the same words up to a
/// point, the text up to there is what the final decode would give too. Committing it then, rather
/// than at the next pause, brings final text within a second or two on speech that does not pause.
///
/// Each decode reads the utterance from its start, committed words included; they are matched by
/// text, not time (Whisper's word times are too rough to cut audio at), and skipped.
struct LocalAgreement: Sendable {
  /// A decoded word with where it ends on the analyzer's timeline, in samples (roughly).
  struct Word: Sendable, Equatable {
    /// The word as Whisper wrote it, with its leading space and punctuation.
    var token: WhisperSegment.Token
    /// Where the word ends.
    var end: Int

    /// The word compared between decodes: lowercase letters and digits only, so that a comma or a
    /// capital letter that comes and goes does not keep a word from being stable.
    var key: String { LocalAgreement.key(token.bytes) }
  }

  /// The words of the utterance made final so far, in order.
  private(set) var committed: [Word] = []
  /// The last decodes' words after the committed ones, oldest first, with how much audio each
  /// heard: as many as must agree with the next.
  private var earlier: [(words: [Word], length: Int)] = []
  /// How many consecutive decodes must agree on a word.
  let decodes: Int
  /// How much audio the oldest of the agreeing decodes must have heard.
  let shortestDecode: Int

  /// Creates the rule with nothing decoded yet: words are committed once `decodes` consecutive
  /// decodes agree on them, the oldest of which heard `shortestDecode` samples. Whisper reads the
  /// first words of a second or two of audio unreliably, and two short decodes can agree on the
  /// same wrong words; a third, with more audio, rarely does.
  init(decodes: Int, shortestDecode: Int) {
    self.decodes = max(decodes, 2)
    self.shortestDecode = shortestDecode
  }

  /// Takes the newest decode of the whole utterance, which heard `length` samples of it: returns
  /// where its words after the committed ones begin, and how many of those can be committed.
  mutating func agreement(with hypothesis: [Word], length: Int) -> (fresh: Int, agreed: Int) {
    let fresh = Self.end(of: committed.map(\.key), in: hypothesis.map(\.key))
    let tail = Array(hypothesis[fresh...])
    var agreed = 0
    if earlier.count == decodes - 1, let oldest = earlier.first, oldest.length >= shortestDecode {
      // The newest decode's last word is left out: it ends where the audio does, and may be cut
      // off, or carry the full stop Whisper writes there.
      let limit = earlier.map(\.words.count).reduce(tail.count - 1, min)
      while agreed < limit, !tail[agreed].key.isEmpty,
        earlier.allSatisfy({ $0.words[agreed].key == tail[agreed].key })
      {
        agreed += 1
      }
    }
    earlier.append((tail, length))
    if earlier.count > decodes - 1 { earlier.removeFirst() }
    return (fresh, agreed)
  }

  /// Forgets everything: the utterance ended.
  mutating func reset() {
    committed = []
    earlier = []
  }

  /// Commits the first `count` words after the committed ones of the last decode (which the
  /// decodes before it agree on).
  mutating func commit(_ count: Int) {
    guard let newest = earlier.last else { return }
    let count = min(count, newest.words.count)
    committed += newest.words[..<count]
    for index in earlier.indices { earlier[index].words.removeFirst(min(count, earlier[index].words.count)) }
  }

  /// Where the words of `prefix` end in `words`: the length of the start of `words` closest to
  /// `prefix` by word edit distance (on a tie, the longer one). A decode that reads a committed
  /// word differently, drops one or adds one still lines up.
  static func end(of prefix: [String], in words: [String]) -> Int {
    guard !prefix.isEmpty else { return 0 }
    // distance[j]: edits between the prefix so far and the first j words.
    var distance = Array(0...words.count)
    for (i, word) in prefix.enumerated() {
      var next = [i + 1] + Array(repeating: 0, count: words.count)
      for (j, other) in zip(words.indices, words) {
        next[j + 1] = min(distance[j] + (other == word ? 0 : 1), distance[j + 1] + 1, next[j] + 1)
      }
      distance = next
    }
    var best = 0
    for j in distance.indices where distance[j] <= distance[best] { best = j }
    return best
  }

  /// A word as compared: lowercase letters and digits of its UTF-8 text.
  static func key(_ bytes: [UInt8]) -> String {
    String(String(decoding: bytes, as: UTF8.self).lowercased().filter { $0.isLetter || $0.isNumber })
  }
}
