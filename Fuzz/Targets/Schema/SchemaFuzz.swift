import Foundation

@testable import LanguageModels

/// GenerationSchema from DynamicGenerationSchema, and its grammar: the JSON Schema text our writer
/// prints, our JSON parser reads back, then the GBNF grammar (``SchemaGrammar``: our number-range
/// rules over llama.cpp's JSON-Schema converter).
///
/// The input is a JSON description of a schema tree, read with Foundation's JSON parser:
/// `{"root": node, "dependencies": [node]}` where a node is one of
/// `{"object": name, "description": text, "properties": [{"name", "optional", "schema": node}]}`,
/// `{"union": name, "choices": [node]}`, `{"strings": name, "choices": [text]}`,
/// `{"array": node, "min": n, "max": n}`, `{"ref": name}` or
/// `{"type": "string" | "int" | "double" | "float" | "decimal" | "bool" | "strings", "guides": [guide]}`
/// with guides `{"pattern": text}`, `{"constant": text}`, `{"anyOf": [text]}`, `{"min": n}`,
/// `{"max": n}`, `{"range": [n, n]}`, `{"count": n}`, `{"minCount": n}`, `{"maxCount": n}`.
/// Anything else in a node makes it a string.
enum SchemaFuzz {
  static func run(_ data: Data) {
    guard let description = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
    var budget = 200
    let root = node(description["root"], budget: &budget)
    let dependencies = (description["dependencies"] as? [Any] ?? []).prefix(20).map { node($0, budget: &budget) }
    guard let schema = try? GenerationSchema(root: root, dependencies: dependencies) else { return }
    _ = schema.debugDescription
    let jsonSchema = schema.jsonSchema()
    do {
      _ = try GeneratedContent(json: jsonSchema)
    } catch {
      fuzzCheck(false, "the JSON Schema we print does not parse: \(jsonSchema)")
    }
    guard let grammar = try? SchemaGrammar(schema) else { return }
    fuzzCheck(grammar.text.contains("root ::="), "the grammar has no root rule: \(grammar.text.prefix(200))")
  }

  private static func node(_ value: Any?, budget: inout Int) -> DynamicGenerationSchema {
    budget -= 1
    guard budget > 0, let fields = value as? [String: Any] else { return DynamicGenerationSchema(type: String.self) }
    let description = fields["description"] as? String
    if let name = fields["object"] as? String {
      let properties = (fields["properties"] as? [Any] ?? []).compactMap { item -> DynamicGenerationSchema.Property? in
        guard let property = item as? [String: Any], let name = property["name"] as? String else { return nil }
        return DynamicGenerationSchema.Property(
          name: name, description: property["description"] as? String,
          schema: node(property["schema"], budget: &budget), isOptional: property["optional"] as? Bool ?? false)
      }
      return DynamicGenerationSchema(name: name, description: description, properties: properties)
    }
    if let name = fields["union"] as? String {
      let choices = (fields["choices"] as? [Any] ?? []).map { node($0, budget: &budget) }
      return DynamicGenerationSchema(name: name, description: description, anyOf: choices)
    }
    if let name = fields["strings"] as? String {
      return DynamicGenerationSchema(name: name, description: description, anyOf: strings(fields["choices"]))
    }
    if let item = fields["array"] {
      return DynamicGenerationSchema(
        arrayOf: node(item, budget: &budget), minimumElements: integer(fields["min"]),
        maximumElements: integer(fields["max"]))
    }
    if let name = fields["ref"] as? String {
      return DynamicGenerationSchema(referenceTo: name)
    }
    let guides = (fields["guides"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
    switch fields["type"] as? String {
    case "int": return DynamicGenerationSchema(type: Int.self, guides: guides.flatMap(integerGuides))
    case "double": return DynamicGenerationSchema(type: Double.self, guides: guides.flatMap(doubleGuides))
    case "float":
      return DynamicGenerationSchema(
        type: Float.self, guides: guides.flatMap(doubleGuides).compactMap(floatGuide))
    case "decimal":
      return DynamicGenerationSchema(type: Decimal.self, guides: guides.flatMap(decimalGuides))
    case "bool": return DynamicGenerationSchema(type: Bool.self)
    case "strings": return DynamicGenerationSchema(type: [String].self, guides: guides.flatMap(countGuides))
    default: return DynamicGenerationSchema(type: String.self, guides: guides.flatMap(stringGuides))
    }
  }

  private static func strings(_ value: Any?) -> [String] { (value as? [Any] ?? []).compactMap { $0 as? String } }

  private static func integer(_ value: Any?) -> Int? {
    guard let number = value as? NSNumber, let exact = Int(exactly: number.doubleValue) else { return nil }
    return exact
  }

  private static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

  private static func bounds(_ value: Any?) -> (Double, Double)? {
    guard let pair = value as? [Any], pair.count == 2, let low = double(pair[0]), let high = double(pair[1]),
      low <= high
    else { return nil }
    return (low, high)
  }

  private static func stringGuides(_ guide: [String: Any]) -> [GenerationGuide<String>] {
    var guides: [GenerationGuide<String>] = []
    if let pattern = guide["pattern"] as? String { guides.append(.pattern(pattern)) }
    if let constant = guide["constant"] as? String { guides.append(.constant(constant)) }
    if guide["anyOf"] != nil { guides.append(.anyOf(strings(guide["anyOf"]))) }
    return guides
  }

  private static func integerGuides(_ guide: [String: Any]) -> [GenerationGuide<Int>] {
    var guides: [GenerationGuide<Int>] = []
    if let minimum = integer(guide["min"]) { guides.append(.minimum(minimum)) }
    if let maximum = integer(guide["max"]) { guides.append(.maximum(maximum)) }
    if let (low, high) = bounds(guide["range"]), let low = Int(exactly: low), let high = Int(exactly: high) {
      guides.append(.range(low...high))
    }
    return guides
  }

  private static func doubleGuides(_ guide: [String: Any]) -> [GenerationGuide<Double>] {
    var guides: [GenerationGuide<Double>] = []
    if let minimum = double(guide["min"]) { guides.append(.minimum(minimum)) }
    if let maximum = double(guide["max"]) { guides.append(.maximum(maximum)) }
    if let (low, high) = bounds(guide["range"]) { guides.append(.range(low...high)) }
    return guides
  }

  private static func floatGuide(_ guide: GenerationGuide<Double>) -> GenerationGuide<Float>? {
    switch guide.constraint {
    case .minimum(let value): .minimum(Float(value))
    case .maximum(let value): .maximum(Float(value))
    case .range(let low, let high): Float(low) <= Float(high) ? .range(Float(low)...Float(high)) : nil
    default: nil
    }
  }

  private static func decimalGuides(_ guide: [String: Any]) -> [GenerationGuide<Decimal>] {
    doubleGuides(guide).compactMap { guide in
      switch guide.constraint {
      case .minimum(let value): .minimum(Decimal(value))
      case .maximum(let value): .maximum(Decimal(value))
      case .range(let low, let high): .range(Decimal(low)...Decimal(high))
      default: nil
      }
    }
  }

  private static func countGuides(_ guide: [String: Any]) -> [GenerationGuide<[String]>] {
    var guides: [GenerationGuide<[String]>] = []
    if let count = integer(guide["count"]) { guides.append(.count(count)) }
    if let minimum = integer(guide["minCount"]) { guides.append(.minimumCount(minimum)) }
    if let maximum = integer(guide["maxCount"]) { guides.append(.maximumCount(maximum)) }
    return guides
  }
}
