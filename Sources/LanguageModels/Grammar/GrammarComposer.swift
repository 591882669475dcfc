/// Combines GBNF grammars: renames each one's rules under a prefix so that several converter
/// outputs (which all define `root`, `space`, `string`...) can live in one grammar.
enum GrammarComposer {
  /// `grammar` with every rule name prefixed by `prefix`; its start rule becomes `<prefix>root`.
  static func prefixing(_ grammar: String, with prefix: String) -> String {
    let lines = grammar.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    var names = Set<String>()
    for line in lines {
      if let range = line.range(of: " ::= ") { names.insert(String(line[..<range.lowerBound])) }
    }
    return lines.map { line -> String in
      guard let range = line.range(of: " ::= ") else { return line }
      let name = String(line[..<range.lowerBound])
      return prefix + name + " ::= " + renaming(String(line[range.upperBound...]), names: names, prefix: prefix)
    }.joined(separator: "\n") + "\n"
  }

  /// Renames rule references in a rule body, leaving string literals and character classes alone.
  private static func renaming(_ body: String, names: Set<String>, prefix: String) -> String {
    var output = ""
    var identifier = ""
    var index = body.startIndex
    func flush() {
      if !identifier.isEmpty {
        output += names.contains(identifier) ? prefix + identifier : identifier
        identifier = ""
      }
    }
    while index < body.endIndex {
      let character = body[index]
      if character == "\"" || character == "[" {
        flush()
        let closing: Character = character == "\"" ? "\"" : "]"
        output.append(character)
        index = body.index(after: index)
        while index < body.endIndex {
          let inner = body[index]
          output.append(inner)
          if inner == "\\" {
            index = body.index(after: index)
            if index < body.endIndex { output.append(body[index]) }
          } else if inner == closing {
            break
          }
          index = body.index(after: index)
        }
        if index < body.endIndex { index = body.index(after: index) }
        continue
      }
      if character.isLetter || character.isNumber || character == "-" || character == "_" {
        identifier.append(character)
      } else {
        flush()
        output.append(character)
      }
      index = body.index(after: index)
    }
    flush()
    return output
  }
}
