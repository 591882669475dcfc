import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Generable`: builds a type's schema, its conversions to and from generated content and, for a
/// structure, its `PartiallyGenerated` counterpart.
public struct GenerableMacro: MemberMacro, ExtensionMacro {
  // MARK: Members: the schema and the partially generated counterpart.

  /// Adds `generationSchema` and, for a structure, `PartiallyGenerated` and `asPartiallyGenerated()`.
  public static func expansion(
    of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let access = accessModifier(of: declaration)
    let description = typeDescription(of: node)
    if declaration.is(StructDeclSyntax.self) {
      guard let properties = StoredProperty.read(from: declaration, in: context) else { return [] }
      return structMembers(properties, description: description, access: access)
    }
    if let enumeration = declaration.as(EnumDeclSyntax.self) {
      let cases = EnumCase.read(from: enumeration)
      return [EnumCase.schema(of: cases, description: description, access: access)]
    }
    context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.notStructOrEnum(kind: kindName(of: declaration))))
    return []
  }

  // MARK: Extension: the conformance and the conversions.

  /// Adds the `Generable` conformance with `init(_:)` and `generatedContent`.
  public static func expansion(
    of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let access = accessModifier(of: declaration)
    // Nonisolated, so a module built with main-actor default isolation (Xcode 26's default for new
    // projects) still gets a conformance the framework can use from any task.
    let conformance = protocols.isEmpty ? "" : ": nonisolated LanguageModels.Generable"
    let body: String
    if declaration.is(StructDeclSyntax.self) {
      // Diagnostics were reported by the member expansion; stay silent here.
      guard let properties = StoredProperty.read(from: declaration, in: SilentContext(base: context)) else { return [] }
      body = structConversions(properties, access: access)
    } else if let enumeration = declaration.as(EnumDeclSyntax.self) {
      body = EnumCase.conversions(of: EnumCase.read(from: enumeration), access: access)
    } else {
      return []
    }
    let decl: DeclSyntax = "extension \(type.trimmed)\(raw: conformance) {\n\(raw: body)\n}"
    guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
    return [extensionDecl]
  }

  // MARK: Structures

  private static func structMembers(_ properties: [StoredProperty], description: String, access: String) -> [DeclSyntax]
  {
    let generated = properties.filter { !$0.isGenerationID }
    let schemaProperties = generated.map { property in
      var arguments = "name: \(literal(property.name)), description: \(property.description?.description ?? "nil"), "
      arguments += "type: \(property.type).self"
      if !property.guides.isEmpty {
        arguments += ", guides: [\(property.guides.map(\.description).joined(separator: ", "))]"
      }
      return "LanguageModels.GenerationSchema.Property(\(arguments))"
    }
    let schema: DeclSyntax = """
      \(raw: access)nonisolated static var generationSchema: LanguageModels.GenerationSchema {
        LanguageModels.GenerationSchema(
          type: Self.self, description: \(raw: description),
          properties: [\(raw: schemaProperties.map { "\n      " + $0 + "," }.joined())
          ])
      }
      """

    let partialProperties = generated.map { property in
      "\(access)var \(property.name): \(property.wrappedType).PartiallyGenerated?"
    }
    let partialAssignments = generated.map { property in
      "self.\(property.name) = try? content.value(\(property.wrappedType).PartiallyGenerated.self, forProperty: \(literal(property.name)))"
    }
    let partial: DeclSyntax = """
      \(raw: access)nonisolated struct PartiallyGenerated: Identifiable, Sendable, LanguageModels.ConvertibleFromGeneratedContent {
        \(raw: access)var id: LanguageModels.GenerationID
        \(raw: partialProperties.joined(separator: "\n  "))

        \(raw: access)init(_ content: LanguageModels.GeneratedContent) {
          self.id = content.id ?? LanguageModels.GenerationID()
          \(raw: partialAssignments.joined(separator: "\n    "))
        }
      }
      """
    let asPartial: DeclSyntax = """
      \(raw: access)nonisolated func asPartiallyGenerated() -> PartiallyGenerated {
        PartiallyGenerated(self.generatedContent)
      }
      """
    return [schema, partial, asPartial]
  }

  private static func structConversions(_ properties: [StoredProperty], access: String) -> String {
    let idProperty = properties.first { $0.isGenerationID }
    let assignments = properties.map { property in
      if property.isGenerationID {
        return property.isOptional
          ? "self.\(property.name) = content.id" : "self.\(property.name) = content.id ?? LanguageModels.GenerationID()"
      }
      // The type is inferred from the property, not named: a name written in a nested type (a
      // sibling type, say) does not resolve in this extension.
      return "self.\(property.name) = try content.value(forProperty: \(literal(property.name)))"
    }
    let appends = properties.filter { !$0.isGenerationID }.map { property in
      property.isOptional
        ? "if let value = self.\(property.name) { properties.append((\(literal(property.name)), value)) }"
        : "properties.append((\(literal(property.name)), self.\(property.name)))"
    }
    let id = idProperty.map { "self.\($0.name)" } ?? "nil"
    return """
        \(access)nonisolated init(_ content: LanguageModels.GeneratedContent) throws {
          \(assignments.joined(separator: "\n    "))
        }

        \(access)nonisolated var generatedContent: LanguageModels.GeneratedContent {
          var properties: [(String, any LanguageModels.ConvertibleToGeneratedContent)] = []
          \(appends.joined(separator: "\n    "))
          return LanguageModels.GeneratedContent(properties: properties, id: \(id), uniquingKeysWith: { first, _ in first })
        }
      """
  }

  // MARK: Helpers

  /// The `description:` argument of `@Generable`, as written, or `nil`.
  private static func typeDescription(of node: AttributeSyntax) -> String {
    StoredProperty.description(of: node)?.description ?? "nil"
  }

  /// `public `, `package ` or nothing, matching the type's own access.
  static func accessModifier(of declaration: some DeclGroupSyntax) -> String {
    for modifier in declaration.modifiers {
      switch modifier.name.text {
      case "public", "open": return "public "
      case "package": return "package "
      default: continue
      }
    }
    return ""
  }

  private static func kindName(of declaration: some DeclGroupSyntax) -> String {
    if declaration.is(ClassDeclSyntax.self) { return "a class" }
    if declaration.is(ActorDeclSyntax.self) { return "an actor" }
    if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
    if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
    return "this declaration"
  }

  /// A Swift string literal for a name.
  static func literal(_ text: String) -> String {
    var result = "\""
    for character in text {
      if character == "\\" || character == "\"" {
        result.append("\\")
      }
      result.append(character)
    }
    return result + "\""
  }
}

/// A context that drops diagnostics, so that two expansions of one macro report each problem once.
private final class SilentContext<Base: MacroExpansionContext>: MacroExpansionContext {
  let base: Base
  init(base: Base) { self.base = base }
  var lexicalContext: [Syntax] { base.lexicalContext }
  func makeUniqueName(_ name: String) -> TokenSyntax { base.makeUniqueName(name) }
  func diagnose(_ diagnostic: Diagnostic) {}
  func location(
    of node: some SyntaxProtocol, at position: PositionInSyntaxNode, filePathMode: SourceLocationFilePathMode
  ) -> AbstractSourceLocation? {
    base.location(of: node, at: position, filePathMode: filePathMode)
  }
}
