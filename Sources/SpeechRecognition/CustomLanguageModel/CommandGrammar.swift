import Foundation

/// The commands a custom language model allows, as a grammar: the phrases and templates of the
/// model as alternatives of literal text and class rules.
///
/// For the seed's data the grammar is, in GBNF (``gbnf``):
///
/// ```
/// root ::= lead command tail
/// lead ::= " " | ""
/// tail ::= "." | "!" | "?" | ""
/// command ::= "Set background to " class-color | "I am " class-element | "See the sea"
/// class-color ::= "red" | "blue" | "green" | "yellow"
/// class-element ::= "fire" | "sea"
/// ```
///
/// `lead` and `tail` let Whisper write its usual leading space and closing punctuation. The same
/// structure (``rules``) maps one to one onto whisper.cpp's grammar elements: a literal is a run
/// of characters, a rule reference is a rule reference, and alternatives are alternatives.
public struct CommandGrammar: Sendable, Hashable, Codable {
  /// One item of an alternative.
  public enum Element: Sendable, Hashable, Codable {
    /// Text that must appear exactly, spaces included.
    case literal(String)
    /// A reference to another rule, by name.
    case rule(String)
  }

  /// A named rule: a list of alternatives, each a sequence of elements (an empty sequence matches
  /// nothing, i.e. the empty string).
  public struct Rule: Sendable, Hashable, Codable {
    /// The rule's name, usable in GBNF (`[a-z0-9-]+`).
    public let name: String
    /// The alternatives, in order.
    public let alternatives: [[Element]]

    /// Creates a rule.
    public init(name: String, alternatives: [[Element]]) {
      self.name = name
      self.alternatives = alternatives
    }
  }

  /// The name of the start rule.
  public static let rootRuleName = "root"
  /// The name of the rule that lists the commands themselves (without lead and tail).
  public static let commandRuleName = "command"

  /// Every rule, the start rule first; empty when the model has no phrases.
  public let rules: [Rule]

  /// Creates a grammar from rules, the start rule first.
  public init(rules: [Rule]) {
    self.rules = rules
  }

  /// True when the grammar allows nothing (a model with no phrases and no templates).
  public var isEmpty: Bool { rules.isEmpty }

  /// The rule called `name`.
  public func rule(named name: String) -> Rule? {
    rules.first { $0.name == name }
  }

  /// The grammar in GBNF, as llama.cpp and whisper.cpp's example parser read it; empty when
  /// ``isEmpty``.
  public var gbnf: String {
    rules.map { rule in
      let alternatives = rule.alternatives.map { sequence in
        sequence.isEmpty ? "\"\"" : sequence.map(Self.gbnf).joined(separator: " ")
      }
      return "\(rule.name) ::= \(alternatives.joined(separator: " | "))"
    }.joined(separator: "\n") + (rules.isEmpty ? "" : "\n")
  }

  /// Whether `text` is one of the commands, comparing words without regard to case, punctuation or
  /// spacing (`"set background to Blue!"` matches `"Set background to <color>"`); see
  /// ``command(matching:)`` for the command itself.
  public func matches(_ text: String) -> Bool {
    command(matching: text) != nil
  }

  // MARK: - Building

  /// The grammar for a model's plain phrases and template groups.
  ///
  /// Class rules are named `class-<name>` (lowercased, other characters as `-`), one per class per
  /// template group. Throws the template errors expansion would.
  static func build(phrases: [String], templateGroups: [TemplateGroup]) throws -> CommandGrammar {
    var commands: [[Element]] = []
    var classRules: [Rule] = []
    var usedNames: Set<String> = [rootRuleName, commandRuleName, "lead", "tail"]

    for group in templateGroups where !group.templates.isEmpty {
      let expander = TemplateExpander(classes: group.classes)
      var ruleNames: [String: String] = [:]
      var pending: [(className: String, template: String)] = []

      func sequence(for text: String, template: String, visiting: [String]) throws -> [Element] {
        let body = try TemplateBody(parsing: text, template: template)
        return try body.segments.map { segment in
          switch segment {
          case .text(let literal):
            return .literal(literal)
          case .slot(let name):
            _ = try expander.values(ofClass: name, template: template)
            guard !visiting.contains(name) else {
              throw CustomLanguageModelError.malformedTemplate(
                template: template, reason: "the class <\(name)> refers to itself")
            }
            if ruleNames[name] == nil {
              ruleNames[name] = uniqueName(for: name, used: &usedNames)
              pending.append((name, template))
            }
            return .rule(ruleNames[name]!)
          }
        }
      }

      for template in group.templates {
        // Expanding checks counts, classes, cycles and size exactly as export does.
        _ = try expander.phraseCounts(for: template)
        commands.append(try sequence(for: template.body, template: template.body, visiting: []))
      }
      while !pending.isEmpty {
        let (className, template) = pending.removeFirst()
        let values = try expander.values(ofClass: className, template: template)
        var alternatives: [[Element]] = []
        for value in values {
          let alternative = try sequence(for: value, template: template, visiting: [className])
          if !alternatives.contains(alternative) { alternatives.append(alternative) }
        }
        classRules.append(Rule(name: ruleNames[className]!, alternatives: alternatives))
      }
    }

    for phrase in phrases {
      let text = TemplateBody.normalizedWhitespace(phrase)
      if !text.isEmpty { commands.append([.literal(text)]) }
    }
    var unique: [[Element]] = []
    for command in commands where !unique.contains(command) {
      unique.append(command)
    }
    guard !unique.isEmpty else { return CommandGrammar(rules: []) }

    let root = Rule(name: rootRuleName, alternatives: [[.rule("lead"), .rule(commandRuleName), .rule("tail")]])
    let lead = Rule(name: "lead", alternatives: [[.literal(" ")], []])
    let tail = Rule(name: "tail", alternatives: [[.literal(".")], [.literal("!")], [.literal("?")], []])
    let command = Rule(name: commandRuleName, alternatives: unique)
    return CommandGrammar(rules: [root, lead, tail, command] + classRules)
  }

  private static func uniqueName(for className: String, used: inout Set<String>) -> String {
    let slug = className.lowercased().unicodeScalars.map { scalar in
      ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? String(scalar) : "-"
    }.joined()
    let base = "class-" + (slug.isEmpty ? "value" : slug)
    var name = base
    var number = 2
    while used.contains(name) {
      name = "\(base)-\(number)"
      number += 1
    }
    used.insert(name)
    return name
  }

  private static func gbnf(_ element: Element) -> String {
    switch element {
    case .rule(let name):
      return name
    case .literal(let text):
      var escaped = "\""
      for character in text {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        default: escaped.append(character)
        }
      }
      return escaped + "\""
    }
  }

  // MARK: - Words

  /// Lowercased words of letters, digits and apostrophes; everything else separates words.
  static func words(in text: String) -> [String] {
    text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }.map(String.init)
  }
}
