import CLlamaGrammar
import Foundation

/// Compiles a ``GenerationSchema`` into the GBNF grammar llama.cpp enforces while sampling.
///
/// Two paths, one grammar:
/// - llama.cpp's own JSON-Schema converter (`common/json-schema-to-grammar`, built from the same
///   sources as the engine) handles objects and property order, arrays with `count`,
///   `minimumCount`, `maximumCount` and `element`, strings with `anyOf`, `constant` and `pattern`,
///   integers with `range`, `minimum` and `maximum`, optionals, nested types and enums.
/// - It bounds integers only; a `Double`, `Float` or `Decimal` with `range`, `minimum` or
///   `maximum` gets a rule of ours (``NumberRangeGrammar``). Such a number is handed to the
///   converter as a unique constant placeholder, and the placeholder's literal in the converter's
///   output is then replaced by our rule.
struct SchemaGrammar {
  /// The GBNF text, with `root` as its start rule.
  let text: String

  /// Compiles `schema`.
  ///
  /// - Throws: ``LanguageModelSession/GenerationError/unsupportedGuide(_:)`` when a guide cannot
  ///   be enforced (an empty or too wide number range, a pattern the converter rejects).
  init(_ schema: GenerationSchema) throws(LanguageModelSession.GenerationError) {
    if let problem = schema.unsupportedGuideDescription() {
      throw .unsupportedGuide(.init(debugDescription: problem))
    }
    try self.init(jsonSchema: schema.jsonSchema())
  }

  /// Compiles a JSON Schema text.
  init(jsonSchema: String) throws(LanguageModelSession.GenerationError) {
    let parsed: GeneratedContent
    do {
      parsed = try GeneratedContent(json: jsonSchema)
    } catch {
      throw .unsupportedGuide(.init(debugDescription: "the schema is not valid JSON: \(error)"))
    }
    var ranges: [NumberRangeGrammar] = []
    let rewritten = try Self.replacingNumberRanges(in: parsed, collecting: &ranges)
    var grammar = try Self.convert(rewritten.jsonString)
    for (index, range) in ranges.enumerated() {
      let literal = Self.placeholderLiteral(index)
      guard grammar.contains(literal) else {
        throw .unsupportedGuide(.init(debugDescription: "internal: the number-range placeholder \(index) was lost"))
      }
      grammar = grammar.replacingOccurrences(of: literal, with: "vn-number-\(index)")
      grammar += "vn-number-\(index) ::= \(range.rule())\n"
    }
    text = grammar
  }

  /// Calls llama.cpp's converter.
  static func convert(_ jsonSchema: String) throws(LanguageModelSession.GenerationError) -> String {
    var error: UnsafeMutablePointer<CChar>?
    guard let result = vn_json_schema_to_grammar(jsonSchema, &error) else {
      let message = error.map { String(cString: $0) } ?? "unknown error"
      vn_grammar_free(error)
      throw .unsupportedGuide(
        .init(debugDescription: "llama.cpp's JSON Schema converter refused the schema: \(message)"))
    }
    defer { vn_grammar_free(result) }
    return compact(String(cString: result))
  }

  /// The grammar with JSON's optional whitespace taken out (`{"a":1,"b":[2]}`), the way the small
  /// models here write JSON anyway. With no choice of spacing, everything from the end of one
  /// value to the start of the next (`","summary":"`) is forced, so the engine evaluates it in one
  /// forward pass instead of sampling it token by token (see `LlamaEngine`).
  static func compact(_ grammar: String) -> String {
    grammar.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("space ::= ") ? "space ::= \"\"" : String($0) }
      .joined(separator: "\n")
  }

  // MARK: - Number ranges

  private static func placeholder(_ index: Int) -> String { "vn-number-range-\(index)" }

  /// How the converter writes the placeholder constant: a GBNF literal of the JSON string.
  private static func placeholderLiteral(_ index: Int) -> String { "\"\\\"\(placeholder(index))\\\"\"" }

  /// The schema with every bounded non-integer number replaced by a placeholder constant.
  private static func replacingNumberRanges(
    in schema: GeneratedContent, collecting ranges: inout [NumberRangeGrammar]
  ) throws(LanguageModelSession.GenerationError) -> GeneratedContent {
    switch schema.kind {
    case .structure(let properties, let keys):
      if case .string("number") = properties["type"]?.kind,
        properties["minimum"] != nil || properties["maximum"] != nil
      {
        let lower = number(properties["minimum"]) ?? -1_000_000
        let upper = number(properties["maximum"]) ?? 1_000_000
        guard let range = NumberRangeGrammar(lowerBound: lower, upperBound: upper) else {
          throw .unsupportedGuide(
            .init(debugDescription: "a number range \(lower)...\(upper) is empty or spans too many integers"))
        }
        ranges.append(range)
        return GeneratedContent(
          kind: .structure(
            properties: ["const": GeneratedContent(kind: .string(placeholder(ranges.count - 1)))],
            orderedKeys: ["const"]))
      }
      var rewritten: [String: GeneratedContent] = [:]
      for key in keys {
        guard let value = properties[key] else { continue }
        rewritten[key] = try replacingNumberRanges(in: value, collecting: &ranges)
      }
      return GeneratedContent(kind: .structure(properties: rewritten, orderedKeys: keys))
    case .array(let elements):
      var rewritten: [GeneratedContent] = []
      for element in elements { rewritten.append(try replacingNumberRanges(in: element, collecting: &ranges)) }
      return GeneratedContent(kind: .array(rewritten))
    default:
      return schema
    }
  }

  private static func number(_ content: GeneratedContent?) -> Double? {
    if case .number(let value) = content?.kind { return value }
    return nil
  }
}
