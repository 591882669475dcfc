import CWhisper

/// A ``CommandGrammar`` as whisper.cpp's parsed grammar: one array of `whisper_grammar_element`
/// per rule, which this object owns until it is released.
///
/// Rule 0, the start rule, is `sequence ::= root more` with rule 1 `more ::= " " command tail more
/// | ""`: one or more commands in a row, separated by a space, each with the grammar's own `lead`
/// and `tail` (an optional leading space, optional closing punctuation), so a recording of several
/// commands still decodes. The grammar's rules follow in their order. The first letter of each word matches in either case (`"blue"` admits Whisper's
/// `" Blue"`, not `" BLUE"`); the transcriber writes matched commands back as the model spells them.
///
/// whisper.cpp copies the rules when a decode starts, so they must stay alive only for the
/// duration of `whisper_full`.
final class WhisperGrammar: @unchecked Sendable {
  /// Pointers to each rule's elements, in rule order; pass as `grammar_rules`.
  let rules: UnsafeMutablePointer<UnsafePointer<whisper_grammar_element>?>
  /// The number of rules; pass as `n_grammar_rules`.
  let ruleCount: Int
  /// The start rule; pass as `i_start_rule`.
  let startRule = 0
  private let storage: [UnsafeMutableBufferPointer<whisper_grammar_element>]

  /// Converts `grammar`; nil when it is empty or names a rule it does not define.
  init?(_ grammar: CommandGrammar) {
    guard let root = grammar.rules.first?.name, !grammar.isEmpty else { return nil }
    // Rules 0 and 1 are the sequence; the grammar's own rules follow.
    var indices: [String: UInt32] = [:]
    for (index, rule) in grammar.rules.enumerated() where indices[rule.name] == nil {
      indices[rule.name] = UInt32(index + 2)
    }
    guard let rootIndex = indices[root] else { return nil }
    // sequence ::= root more;  more ::= " " command tail more | ""  (or no more without those rules)
    let sequence: [[whisper_grammar_element]] = [[Self.reference(rootIndex), Self.reference(1)]]
    var more: [[whisper_grammar_element]] = [[]]
    if let command = indices[CommandGrammar.commandRuleName], let tail = indices["tail"] {
      more.insert(
        Self.characterElements(" ", eitherCase: false) + [
          Self.reference(command), Self.reference(tail), Self.reference(1),
        ], at: 0)
    }
    var converted = [Self.elements(of: sequence), Self.elements(of: more)]
    for rule in grammar.rules {
      var alternatives: [[whisper_grammar_element]] = []
      for alternative in rule.alternatives {
        var elements: [whisper_grammar_element] = []
        for element in alternative {
          switch element {
          case .literal(let text):
            // The first letter of each word in either case (Whisper capitalises a sentence's
            // first word, or not); the rest as the model writes it.
            var startsWord = true
            for scalar in text.unicodeScalars {
              let isLetter = scalar.properties.isAlphabetic
              elements += Self.characterElements(scalar, eitherCase: startsWord && isLetter)
              startsWord = !(isLetter || scalar.properties.numericType != nil || scalar == "'" || scalar == "’")
            }
          case .rule(let name):
            guard let index = indices[name] else { return nil }
            elements.append(Self.reference(index))
          }
        }
        alternatives.append(elements)
      }
      converted.append(Self.elements(of: alternatives))
    }
    storage = converted.map { elements in
      let buffer = UnsafeMutableBufferPointer<whisper_grammar_element>.allocate(capacity: elements.count)
      _ = buffer.initialize(from: elements)
      return buffer
    }
    ruleCount = storage.count
    rules = .allocate(capacity: storage.count)
    for (index, buffer) in storage.enumerated() {
      (rules + index).initialize(to: UnsafePointer(buffer.baseAddress))
    }
  }

  /// Rule `index` as (element type, value) pairs, through its END: for inspection.
  func elements(ofRule index: Int) -> [(type: UInt32, value: UInt32)] {
    guard index >= 0, index < ruleCount, var pointer = rules[index] else { return [] }
    var elements: [(type: UInt32, value: UInt32)] = []
    while true {
      elements.append((pointer.pointee.type.rawValue, pointer.pointee.value))
      if pointer.pointee.type == WHISPER_GRETYPE_END { return elements }
      pointer += 1
    }
  }

  deinit {
    rules.deallocate()
    for buffer in storage { buffer.deallocate() }
  }

  /// Alternatives joined by ALT and closed by END, as whisper.cpp lays out a rule.
  private static func elements(of alternatives: [[whisper_grammar_element]]) -> [whisper_grammar_element] {
    var elements: [whisper_grammar_element] = []
    for (index, alternative) in alternatives.enumerated() {
      if index > 0 { elements.append(whisper_grammar_element(type: WHISPER_GRETYPE_ALT, value: 0)) }
      elements += alternative
    }
    elements.append(whisper_grammar_element(type: WHISPER_GRETYPE_END, value: 0))
    return elements
  }

  private static func reference(_ rule: UInt32) -> whisper_grammar_element {
    whisper_grammar_element(type: WHISPER_GRETYPE_RULE_REF, value: rule)
  }

  /// One character: the character itself and, with `eitherCase`, its other case as an alternative
  /// when it has one.
  private static func characterElements(_ scalar: Unicode.Scalar, eitherCase: Bool) -> [whisper_grammar_element] {
    var elements = [whisper_grammar_element(type: WHISPER_GRETYPE_CHAR, value: scalar.value)]
    guard eitherCase else { return elements }
    let character = String(scalar)
    for variant in [character.lowercased(), character.uppercased()] {
      guard variant != character, variant.unicodeScalars.count == 1, let other = variant.unicodeScalars.first,
        !elements.contains(where: { $0.value == other.value })
      else { continue }
      elements.append(whisper_grammar_element(type: WHISPER_GRETYPE_CHAR_ALT, value: other.value))
    }
    return elements
  }
}
