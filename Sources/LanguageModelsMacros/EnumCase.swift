import SwiftSyntax

/// A case of a `@Generable` enumeration, as read from its declaration.
struct EnumCase {
  /// The case's name.
  var name: String
  /// The `description:` of its `@Guide`, as written.
  var description: ExprSyntax?
  /// The payload: each value's JSON key (its label, or `_0`, `_1`...) and type.
  var payload: [(key: String, label: String?, type: TypeSyntax)]

  /// Reads every case of an enumeration.
  static func read(from declaration: EnumDeclSyntax) -> [EnumCase] {
    var cases: [EnumCase] = []
    for member in declaration.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      let description = StoredProperty.guideAttributes(of: caseDecl).lazy.compactMap(StoredProperty.description(of:))
        .first
      for element in caseDecl.elements {
        var payload: [(key: String, label: String?, type: TypeSyntax)] = []
        for (offset, parameter) in (element.parameterClause?.parameters ?? []).enumerated() {
          let label = parameter.firstName.flatMap { $0.text == "_" ? nil : $0.text }
          payload.append((label ?? "_\(offset)", label, parameter.type.trimmed))
        }
        cases.append(EnumCase(name: element.name.text, description: description, payload: payload))
      }
    }
    return cases
  }

  /// The `generationSchema` of an enumeration: a string enumeration when no case has a payload,
  /// otherwise a union of one structure per case, told apart by a `case` property.
  static func schema(of cases: [EnumCase], description: String, access: String) -> DeclSyntax {
    if cases.allSatisfy({ $0.payload.isEmpty }) {
      let names = cases.map { GenerableMacro.literal($0.name) }.joined(separator: ", ")
      return """
        \(raw: access)nonisolated static var generationSchema: LanguageModels.GenerationSchema {
          LanguageModels.GenerationSchema(type: Self.self, description: \(raw: describing(cases, description)), anyOf: [\(raw: names)])
        }
        """
    }
    let choices = cases.map { enumCase in
      var properties = [
        "LanguageModels.DynamicGenerationSchema.Property(name: \"case\", schema: LanguageModels.DynamicGenerationSchema(type: String.self, guides: [.constant(\(GenerableMacro.literal(enumCase.name)))]))"
      ]
      for value in enumCase.payload {
        let (wrapped, isOptional) = StoredProperty.unwrapOptional(value.type)
        properties.append(
          "LanguageModels.DynamicGenerationSchema.Property(name: \(GenerableMacro.literal(value.key)), schema: LanguageModels.DynamicGenerationSchema(type: \(wrapped).self), isOptional: \(isOptional))"
        )
      }
      return """
        LanguageModels.DynamicGenerationSchema(
                name: name + \(GenerableMacro.literal("." + enumCase.name)), description: \(enumCase.description?.description ?? "nil"),
                properties: [\(properties.map { "\n          " + $0 + "," }.joined())
                ])
        """
    }
    let names = cases.map { GenerableMacro.literal($0.name) }.joined(separator: ", ")
    return """
      \(raw: access)nonisolated static var generationSchema: LanguageModels.GenerationSchema {
        let name = String(describing: Self.self)
        let choices: [LanguageModels.DynamicGenerationSchema] = [\(raw: choices.map { "\n      " + $0 + "," }.joined())
        ]
        let root = LanguageModels.DynamicGenerationSchema(name: name, description: \(raw: description), anyOf: choices)
        return (try? LanguageModels.GenerationSchema(root: root, dependencies: []))
          ?? LanguageModels.GenerationSchema(type: Self.self, description: \(raw: description), anyOf: [\(raw: names)])
      }
      """
  }

  /// `init(_:)` and `generatedContent` of an enumeration.
  static func conversions(of cases: [EnumCase], access: String) -> String {
    let typeName = "String(describing: Self.self)"
    if cases.allSatisfy({ $0.payload.isEmpty }) {
      let decodeCases = cases.map { "case \(GenerableMacro.literal($0.name)): self = .\($0.name)" }
      let encodeCases = cases.map {
        "case .\($0.name): LanguageModels.GeneratedContent(kind: .string(\(GenerableMacro.literal($0.name))))"
      }
      return """
          \(access)nonisolated init(_ content: LanguageModels.GeneratedContent) throws {
            let value = try String(content)
            switch value {
            \(decodeCases.joined(separator: "\n      "))
            default: throw LanguageModels.GeneratedContent.ConversionError.unknownCase(value, type: \(typeName))
            }
          }

          \(access)nonisolated var generatedContent: LanguageModels.GeneratedContent {
            switch self {
            \(encodeCases.joined(separator: "\n      "))
            }
          }
        """
    }
    let decodeCases = cases.map { enumCase in
      guard !enumCase.payload.isEmpty else {
        return "case \(GenerableMacro.literal(enumCase.name)): self = .\(enumCase.name)"
      }
      let values = enumCase.payload.map { value in
        // The payload's type is inferred from the case, not named: a name written in a nested type
        // (a sibling type, say) does not resolve in the extension this code is expanded into.
        let read = "try content.value(forProperty: \(GenerableMacro.literal(value.key)))"
        return value.label.map { "\($0): \(read)" } ?? read
      }
      return
        "case \(GenerableMacro.literal(enumCase.name)): self = .\(enumCase.name)(\(values.joined(separator: ", ")))"
    }
    let encodeCases = cases.map { enumCase in
      let bindings = enumCase.payload.indices.map { "let value\($0)" }
      let pattern = bindings.isEmpty ? "" : "(\(bindings.joined(separator: ", ")))"
      let pairs =
        ["(\"case\", \(GenerableMacro.literal(enumCase.name)))"]
        + enumCase.payload.indices.map { "(\(GenerableMacro.literal(enumCase.payload[$0].key)), value\($0))" }
      return """
        case .\(enumCase.name)\(pattern):
                properties = [\(pairs.joined(separator: ", "))]
        """
    }
    return """
        \(access)nonisolated init(_ content: LanguageModels.GeneratedContent) throws {
          let value = try content.value(String.self, forProperty: "case")
          switch value {
          \(decodeCases.joined(separator: "\n    "))
          default: throw LanguageModels.GeneratedContent.ConversionError.unknownCase(value, type: \(typeName))
          }
        }

        \(access)nonisolated var generatedContent: LanguageModels.GeneratedContent {
          let properties: [(String, any LanguageModels.ConvertibleToGeneratedContent)]
          switch self {
          \(encodeCases.joined(separator: "\n    "))
          }
          return LanguageModels.GeneratedContent(properties: properties, uniquingKeysWith: { first, _ in first })
        }
      """
  }

  /// The enumeration's description with the cases' descriptions appended.
  private static func describing(_ cases: [EnumCase], _ description: String) -> String {
    let described = cases.compactMap { enumCase in
      enumCase.description.map { "\(GenerableMacro.literal(enumCase.name + ": ")) + \($0)" }
    }
    guard !described.isEmpty else { return description }
    let list = described.joined(separator: " + \"\\n\" + ")
    if description == "nil" {
      return list
    }
    return "(\(description)) + \"\\n\" + " + list
  }
}
