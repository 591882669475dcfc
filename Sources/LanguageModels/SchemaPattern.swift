/// A regular expression rewritten into the subset llama.cpp's JSON-Schema converter enforces.
///
/// The converter needs the pattern anchored with `^` and `$` and understands literals, `.`,
/// character classes, groups (plain and `(?:`), `|`, and the quantifiers `*`, `+`, `?` and `{}`.
/// This rewrites what it can (`\d`, `\w`, `\s`, named groups, lazy quantifiers, escaped punctuation)
/// and reports the rest (lookarounds, backreferences, inline flags, inner anchors, `\b` and the
/// negated shorthand classes).
struct SchemaPattern {
  /// The anchored pattern to put in the JSON Schema.
  private(set) var text = ""
  /// Why the pattern cannot be enforced exactly, if it cannot.
  private(set) var problem: String?

  /// Characters that keep their backslash: the converter reads them as escaped literals.
  private static let keptEscapes: Set<Character> = [
    "^", "$", ".", "[", "]", "(", ")", "|", "{", "}", "*", "+", "?",
    "\\", "\"", "-", "t", "n", "r", "x", "u", "U",
  ]

  /// Rewrites a pattern.
  ///
  /// - Parameter source: The regular expression as written, with or without `^` and `$`.
  init(_ source: String) {
    var characters = Array(source)
    if characters.first == "^" {
      characters.removeFirst()
    }
    if characters.last == "$", !Self.isEscaped(characters, at: characters.count - 1) {
      characters.removeLast()
    }
    var body = ""
    var inClass = false
    var index = 0
    while index < characters.count {
      let character = characters[index]
      let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
      switch character {
      case "\\":
        guard let next else {
          fail("it ends with a backslash")
          index += 1
          continue
        }
        body += rewriteEscape(next, inClass: inClass)
        index += 2
        continue
      case "[" where !inClass:
        inClass = true
        body.append(character)
      case "]" where inClass:
        inClass = false
        body.append(character)
      case "(" where !inClass && next == "?":
        let rest = String(characters[(index + 2)...].prefix(2))
        if rest.hasPrefix(":") {
          body += "(?:"
          index += 3
        } else if rest.hasPrefix("<") && !rest.hasPrefix("<=") && !rest.hasPrefix("<!") || rest.hasPrefix("P<") {
          // A named group: keep the group, drop the name.
          body += "("
          index = (characters[index...].firstIndex(of: ">") ?? index) + 1
        } else {
          fail("it uses a lookaround or inline flags (\"(?\(rest.prefix(1))\")")
          body.append(character)
          index += 1
        }
        continue
      case _ where !inClass && (character == "^" || character == "$"):
        fail("it has an anchor inside the pattern")
        body.append(character)
      case _ where !inClass && "*+?}".contains(character):
        body.append(character)
        if next == "?" {
          // A lazy quantifier matches the same whole strings as a greedy one.
          index += 1
        } else if next == "+" {
          fail("it uses a possessive quantifier")
        }
      default:
        body.append(character)
      }
      index += 1
    }
    text = "^" + (body.contains("|") ? "(?:" + body + ")" : body) + "$"
  }

  private mutating func rewriteEscape(_ escaped: Character, inClass: Bool) -> String {
    switch escaped {
    case "d": return inClass ? "0-9" : "[0-9]"
    case "w": return inClass ? "a-zA-Z0-9_" : "[a-zA-Z0-9_]"
    case "s": return inClass ? " " : "[ ]"
    case _ where Self.keptEscapes.contains(escaped):
      return "\\" + String(escaped)
    case _ where escaped.isLetter || escaped.isNumber:
      fail("it uses \\\(escaped), which llama.cpp's grammar cannot express")
      return "\\" + String(escaped)
    default:
      return String(escaped)
    }
  }

  private mutating func fail(_ reason: String) {
    if problem == nil {
      problem = reason
    }
  }

  private static func isEscaped(_ characters: [Character], at index: Int) -> Bool {
    var backslashes = 0
    var position = index - 1
    while position >= 0, characters[position] == "\\" {
      backslashes += 1
      position -= 1
    }
    return backslashes % 2 == 1
  }
}
