import Foundation

extension CommandGrammar {
  /// The command `text` says, written as the model writes it, or nil when `text` is not one of
  /// the commands.
  ///
  /// Words are compared without regard to case, punctuation or spacing, so a transcript such as
  /// `"set background to Blue!"` gives `"Set background to blue"` for the template
  /// `"Set background to <color>"`.
  public func command(matching text: String) -> String? {
    guard rule(named: Self.commandRuleName) != nil else { return nil }
    let words = Self.words(in: text)
    var memo: [SpanKey: [Int: String]] = [:]
    return spans(ofRule: Self.commandRuleName, from: 0, in: words, memo: &memo)[words.count]
      .map(TemplateBody.normalizedWhitespace)
  }

  /// The commands `text` says one after another, each written as the model writes it, or nil when
  /// `text` is not a sequence of one or more commands (compared as in ``command(matching:)``).
  public func commands(matching text: String) -> [String]? {
    guard rule(named: Self.commandRuleName) != nil else { return nil }
    let words = Self.words(in: text)
    guard !words.isEmpty else { return nil }
    var memo: [SpanKey: [Int: String]] = [:]
    // reached[position]: the commands that end exactly there, in order.
    var reached: [Int: [String]] = [0: []]
    for position in 0..<words.count {
      guard let before = reached[position] else { continue }
      for (end, command) in spans(ofRule: Self.commandRuleName, from: position, in: words, memo: &memo).sorted(by: {
        $0.key < $1.key
      }) where end > position && reached[end] == nil {
        reached[end] = before + [TemplateBody.normalizedWhitespace(command)]
      }
    }
    return reached[words.count]
  }

  private struct SpanKey: Hashable {
    let rule: String
    let start: Int
  }

  /// Where rule `name` can end when it starts at word `start`, with the text it stands for there
  /// (the concatenated literals, as the model spells them); the first reading wins.
  private func spans(ofRule name: String, from start: Int, in words: [String], memo: inout [SpanKey: [Int: String]])
    -> [Int: String]
  {
    let key = SpanKey(rule: name, start: start)
    if let known = memo[key] { return known }
    memo[key] = [:]  // Guards against a (rejected at build time) cycle.
    var result: [Int: String] = [:]
    for alternative in rule(named: name)?.alternatives ?? [] {
      var positions: [Int: String] = [start: ""]
      for element in alternative {
        var next: [Int: String] = [:]
        for (position, text) in positions.sorted(by: { $0.key < $1.key }) {
          switch element {
          case .literal(let literal):
            let expected = Self.words(in: literal)
            let end = position + expected.count
            if end <= words.count, Array(words[position..<end]) == expected, next[end] == nil {
              next[end] = text + literal
            }
          case .rule(let referenced):
            for (end, spelled) in spans(ofRule: referenced, from: position, in: words, memo: &memo)
            where next[end] == nil {
              next[end] = text + spelled
            }
          }
        }
        positions = next
        if positions.isEmpty { break }
      }
      for (end, text) in positions where result[end] == nil { result[end] = text }
    }
    memo[key] = result
    return result
  }
}
