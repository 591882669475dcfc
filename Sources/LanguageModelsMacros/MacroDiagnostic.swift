import SwiftDiagnostics

/// The errors `@Generable` and `@Guide` report, each at the declaration or expression at fault.
enum MacroDiagnostic: DiagnosticMessage {
  case notStructOrEnum(kind: String)
  case missingTypeAnnotation(name: String)
  case unsupportedType(type: String, name: String)
  case guideMismatch(guide: String, expected: String, name: String, type: String)
  case guideOnComputedProperty(name: String)
  case guideOnUnsupportedDeclaration
  case guidesOnEnumCase
  case regexWithOtherGuides(name: String)
  case idPropertyType(type: String)

  var message: String {
    switch self {
    case .notStructOrEnum(let kind):
      "@Generable can only be applied to a struct or an enum, not to \(kind)"
    case .missingTypeAnnotation(let name):
      "@Generable needs an explicit type annotation on '\(name)', such as '\(name): String'"
    case .unsupportedType(let type, let name):
      "'\(name)' has type '\(type)', which @Generable cannot generate; use String, Int, Double, Float, Bool, Decimal, an optional, an array or a @Generable type"
    case .guideMismatch(let guide, let expected, let name, let type):
      "'.\(guide)' applies to \(expected), but '\(name)' is '\(type)'"
    case .guideOnComputedProperty(let name):
      "@Guide cannot be applied to the computed property '\(name)'; the model generates stored properties only"
    case .guideOnUnsupportedDeclaration:
      "@Guide can only be applied to a stored property or an enum case of a @Generable type"
    case .guidesOnEnumCase:
      "@Guide on an enum case takes a description only"
    case .regexWithOtherGuides(let name):
      "'\(name)' has a regex guide; write it as .pattern(...) to combine it with other guides"
    case .idPropertyType(let type):
      "A @Generable property named 'id' must have type 'GenerationID', not '\(type)'; rename the property"
    }
  }

  var diagnosticID: MessageID {
    let name =
      switch self {
      case .notStructOrEnum: "notStructOrEnum"
      case .missingTypeAnnotation: "missingTypeAnnotation"
      case .unsupportedType: "unsupportedType"
      case .guideMismatch: "guideMismatch"
      case .guideOnComputedProperty: "guideOnComputedProperty"
      case .guideOnUnsupportedDeclaration: "guideOnUnsupportedDeclaration"
      case .guidesOnEnumCase: "guidesOnEnumCase"
      case .regexWithOtherGuides: "regexWithOtherGuides"
      case .idPropertyType: "idPropertyType"
      }
    return MessageID(domain: "LanguageModelsMacros", id: name)
  }

  var severity: DiagnosticSeverity { .error }
}
