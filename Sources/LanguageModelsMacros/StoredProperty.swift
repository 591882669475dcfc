import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// A stored property of a `@Generable` structure, as read from its declaration.
struct StoredProperty {
  /// The property's name.
  var name: String
  /// The declared type, as written.
  var type: TypeSyntax
  /// The type without an outer optional.
  var wrappedType: TypeSyntax
  /// Whether the declared type is optional.
  var isOptional: Bool
  /// The `description:` argument of its `@Guide`, as written.
  var description: ExprSyntax?
  /// The guide arguments of its `@Guide`, as written; regex literals are wrapped in `.pattern(...)`.
  var guides: [ExprSyntax]
  /// Whether the property receives the content's identifier instead of being generated.
  var isGenerationID: Bool

  /// The kinds of type `@Generable` knows by their syntax.
  enum TypeShape: Equatable {
    case string, integer, floatingPoint, bool
    case array(element: String)
    /// Another type, presumably `@Generable`.
    case named
    /// A type that can never be `Generable`: a dictionary, tuple, function, existential, set...
    case unsupported
  }

  /// Reads the stored properties of a structure, reporting misuse.
  static func read(from declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) -> [StoredProperty]?
  {
    var properties: [StoredProperty] = []
    var valid = true
    for member in declaration.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
      if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { continue }
      let isLet = variable.bindingSpecifier.text == "let"
      let bindings = Array(variable.bindings)
      for (offset, binding) in bindings.enumerated() {
        if isComputed(binding) { continue }
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
        let name = identifier.identifier.text
        if isLet, binding.initializer != nil { continue }
        // `var a, b: Int` gives both the later annotation.
        guard let annotated = bindings[offset...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation?.type
        else {
          context.diagnose(Diagnostic(node: binding, message: MacroDiagnostic.missingTypeAnnotation(name: name)))
          valid = false
          continue
        }
        let type = annotated.trimmed
        let (wrapped, isOptional) = unwrapOptional(type)
        let isGenerationID = ["GenerationID", "LanguageModels.GenerationID"].contains(wrapped.trimmedDescription)
        if name == "id", !isGenerationID {
          context.diagnose(
            Diagnostic(node: annotated, message: MacroDiagnostic.idPropertyType(type: type.trimmedDescription)))
          valid = false
          continue
        }
        if !isGenerationID, containsUnsupported(wrapped) {
          context.diagnose(
            Diagnostic(
              node: annotated, message: MacroDiagnostic.unsupportedType(type: type.trimmedDescription, name: name)))
          valid = false
          continue
        }
        var property = StoredProperty(
          name: name, type: type, wrappedType: wrapped, isOptional: isOptional, description: nil, guides: [],
          isGenerationID: isGenerationID)
        // Apple's samples stack them: `@Guide(description: "...")` above `@Guide(.count(3))`.
        for guide in guideAttributes(of: variable) {
          valid = property.readGuide(guide, in: context) && valid
        }
        properties.append(property)
      }
    }
    return valid ? properties : nil
  }

  /// Whether a binding is computed (a getter, or a `get`/`set` block) rather than stored.
  static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
    guard let block = binding.accessorBlock else { return false }
    switch block.accessors {
    case .getter:
      return true
    case .accessors(let accessors):
      return accessors.contains {
        ["get", "set", "_read", "_modify", "unsafeAddress"].contains($0.accessorSpecifier.text)
      }
    @unknown default:
      return false
    }
  }

  /// The `@Guide` attributes on a declaration, in order.
  static func guideAttributes(of declaration: some WithAttributesSyntax) -> [AttributeSyntax] {
    declaration.attributes.compactMap { element in
      guard let attribute = element.as(AttributeSyntax.self) else { return nil }
      let name = attribute.attributeName.trimmedDescription
      return name == "Guide" || name == "LanguageModels.Guide" ? attribute : nil
    }
  }

  /// The `description:` argument of a `@Guide`, if any.
  static func description(of attribute: AttributeSyntax) -> ExprSyntax? {
    let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
    return arguments.first { $0.label?.text == "description" }?.expression.trimmed
  }

  /// Reads description and guides, checking each guide fits the property's type.
  private mutating func readGuide(_ attribute: AttributeSyntax, in context: some MacroExpansionContext) -> Bool {
    if let written = Self.description(of: attribute) { description = written }
    let arguments = (attribute.arguments?.as(LabeledExprListSyntax.self) ?? []).filter { $0.label == nil }
    var valid = true
    let shape = Self.shape(of: wrappedType)
    for argument in arguments {
      let expression = argument.expression.trimmed
      if expression.is(RegexLiteralExprSyntax.self) {
        if arguments.count > 1 {
          context.diagnose(
            Diagnostic(node: argument.expression, message: MacroDiagnostic.regexWithOtherGuides(name: name)))
          valid = false
        }
        if shape != .string, shape != .named {
          diagnoseMismatch("pattern", expected: "strings", at: attribute, in: context)
          valid = false
        }
        guides.append("LanguageModels.GenerationGuide<String>.pattern(\(expression))")
        continue
      }
      if let guideName = Self.guideName(of: expression), let expected = Self.expectedShape(of: guideName),
        !Self.fits(shape, expected: expected)
      {
        diagnoseMismatch(guideName, expected: expected, at: attribute, in: context)
        valid = false
      }
      guides.append(expression)
    }
    return valid
  }

  private func diagnoseMismatch(
    _ guide: String, expected: String, at node: some SyntaxProtocol, in context: some MacroExpansionContext
  ) {
    context.diagnose(
      Diagnostic(
        node: node,
        message: MacroDiagnostic.guideMismatch(
          guide: guide, expected: expected, name: name, type: type.trimmedDescription)))
  }

  /// The name of a guide written as `.name(...)` or `GenerationGuide.name(...)`.
  private static func guideName(of expression: ExprSyntax) -> String? {
    let called = expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? expression
    return called.as(MemberAccessExprSyntax.self)?.declName.baseName.text
  }

  /// What a guide applies to, in words, or nil for an unknown guide.
  private static func expectedShape(of guide: String) -> String? {
    switch guide {
    case "count", "minimumCount", "maximumCount", "element": "arrays"
    case "minimum", "maximum", "range": "numbers"
    case "constant", "anyOf", "pattern": "strings"
    default: nil
    }
  }

  private static func fits(_ shape: TypeShape, expected: String) -> Bool {
    switch (shape, expected) {
    case (.named, _): true  // A type of the user's own may have guides of its own.
    case (.array, "arrays"): true
    case (.integer, "numbers"), (.floatingPoint, "numbers"): true
    case (.string, "strings"): true
    default: false
    }
  }

  /// The type without an outer `?`, `!` or `Optional<...>`, and whether there was one.
  static func unwrapOptional(_ type: TypeSyntax) -> (TypeSyntax, Bool) {
    if let optional = type.as(OptionalTypeSyntax.self) {
      return (optional.wrappedType.trimmed, true)
    }
    if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return (implicit.wrappedType.trimmed, true)
    }
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
      let argument = identifier.genericArgumentClause?.arguments.first
    {
      return (TypeSyntax(stringLiteral: argument.argument.trimmedDescription), true)
    }
    return (type, false)
  }

  /// What a type is, judged by its syntax.
  static func shape(of type: TypeSyntax) -> TypeShape {
    if let array = type.as(ArrayTypeSyntax.self) {
      return .array(element: array.element.trimmedDescription)
    }
    if type.is(DictionaryTypeSyntax.self) || type.is(FunctionTypeSyntax.self) || type.is(SomeOrAnyTypeSyntax.self)
      || type.is(MetatypeTypeSyntax.self) || type.is(CompositionTypeSyntax.self)
    {
      return .unsupported
    }
    if let tuple = type.as(TupleTypeSyntax.self) {
      guard tuple.elements.count == 1, let only = tuple.elements.first else { return .unsupported }
      return shape(of: only.type)
    }
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      switch identifier.name.text {
      case "String": return .string
      case "Int": return .integer
      case "Double", "Float", "Decimal": return .floatingPoint
      case "Bool": return .bool
      case "Array":
        return .array(element: identifier.genericArgumentClause?.arguments.first?.argument.trimmedDescription ?? "")
      case "Dictionary", "Set", "Any", "AnyObject": return .unsupported
      default: return .named
      }
    }
    return .named
  }

  /// Whether a type, or a type inside it, can never be `Generable`.
  static func containsUnsupported(_ type: TypeSyntax) -> Bool {
    if let array = type.as(ArrayTypeSyntax.self) {
      return containsUnsupported(unwrapOptional(array.element.trimmed).0)
    }
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
      let argument = identifier.genericArgumentClause?.arguments.first
    {
      return containsUnsupported(unwrapOptional(TypeSyntax(stringLiteral: argument.argument.trimmedDescription)).0)
    }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return containsUnsupported(optional.wrappedType)
    }
    return shape(of: type) == .unsupported
  }
}
