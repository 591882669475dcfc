import Foundation

/// A small GBNF reader for tests: parses the subset the command grammar emits (one rule per line,
/// `name ::= alt | alt`, alternatives of quoted literals and rule names) straight from the text,
/// then tests strings against it and lists the whole (finite) language of a rule.
///
/// It reads the GBNF text, not the grammar structure, so a mistake in rendering or escaping shows.
struct GBNFReader {
  enum Item: Hashable {
    case literal(String)
    case rule(String)
  }

  struct ParseError: Error, CustomStringConvertible {
    let description: String
  }

  private(set) var rules: [String: [[Item]]] = [:]
  private(set) var order: [String] = []

  init(_ text: String) throws {
    for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
      guard let arrow = line.range(of: " ::= ") else { throw ParseError(description: "no ::= in \(line)") }
      let name = String(line[..<arrow.lowerBound])
      guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), !name.isEmpty else {
        throw ParseError(description: "bad rule name \(name)")
      }
      guard rules[name] == nil else { throw ParseError(description: "rule \(name) defined twice") }
      rules[name] = try Self.alternatives(in: Array(line[arrow.upperBound...]))
      order.append(name)
    }
    for alternatives in rules.values {
      for case .rule(let name) in alternatives.joined() where rules[name] == nil {
        throw ParseError(description: "undefined rule \(name)")
      }
    }
  }

  /// Whether `rule` derives exactly `text`.
  func accepts(_ text: String, rule: String = "root") -> Bool {
    ends(of: rule, in: Array(text), from: 0).contains(text.count)
  }

  /// Every string `rule` derives (the grammars under test have no recursion).
  func language(of rule: String) -> Set<String> {
    var result: Set<String> = []
    for alternative in rules[rule] ?? [] {
      var strings: Set<String> = [""]
      for item in alternative {
        let options: Set<String>
        switch item {
        case .literal(let text): options = [text]
        case .rule(let name): options = language(of: name)
        }
        strings = Set(strings.flatMap { prefix in options.map { prefix + $0 } })
      }
      result.formUnion(strings)
    }
    return result
  }

  private func ends(of rule: String, in characters: [Character], from start: Int) -> Set<Int> {
    var result: Set<Int> = []
    for alternative in rules[rule] ?? [] {
      var positions: Set<Int> = [start]
      for item in alternative {
        var next: Set<Int> = []
        for position in positions {
          switch item {
          case .literal(let text):
            let expected = Array(text)
            let end = position + expected.count
            if end <= characters.count && Array(characters[position..<end]) == expected { next.insert(end) }
          case .rule(let name):
            next.formUnion(ends(of: name, in: characters, from: position))
          }
        }
        positions = next
      }
      result.formUnion(positions)
    }
    return result
  }

  private static func alternatives(in characters: [Character]) throws -> [[Item]] {
    var alternatives: [[Item]] = [[]]
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character == " " {
        index += 1
      } else if character == "|" {
        alternatives.append([])
        index += 1
      } else if character == "\"" {
        var literal = ""
        index += 1
        while index < characters.count && characters[index] != "\"" {
          if characters[index] == "\\" {
            index += 1
            guard index < characters.count else { throw ParseError(description: "dangling escape") }
            switch characters[index] {
            case "n": literal.append("\n")
            case "r": literal.append("\r")
            case "t": literal.append("\t")
            case "\"", "\\": literal.append(characters[index])
            default: throw ParseError(description: "unknown escape \\\(characters[index])")
            }
          } else {
            literal.append(characters[index])
          }
          index += 1
        }
        guard index < characters.count else { throw ParseError(description: "unterminated literal") }
        index += 1
        if !literal.isEmpty { alternatives[alternatives.count - 1].append(.literal(literal)) }
      } else if character.isLetter || character.isNumber || character == "-" {
        var name = ""
        while index < characters.count
          && (characters[index].isLetter || characters[index].isNumber || characters[index] == "-")
        {
          name.append(characters[index])
          index += 1
        }
        alternatives[alternatives.count - 1].append(.rule(name))
      } else {
        throw ParseError(description: "unexpected character \(character)")
      }
    }
    return alternatives
  }
}
