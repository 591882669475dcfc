import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Guide`: a marker `@Generable` reads. On its own it only checks where it was placed.
public struct GuideMacro: PeerMacro {
  /// Checks the placement of `@Guide` and adds nothing.
  public static func expansion(
    of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let variable = declaration.as(VariableDeclSyntax.self) {
      for binding in variable.bindings where StoredProperty.isComputed(binding) {
        let name = binding.pattern.trimmedDescription
        context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.guideOnComputedProperty(name: name)))
      }
    } else if declaration.is(EnumCaseDeclSyntax.self) {
      let arguments = node.arguments?.as(LabeledExprListSyntax.self) ?? []
      if arguments.contains(where: { $0.label?.text != "description" }) {
        context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.guidesOnEnumCase))
      }
    } else {
      context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.guideOnUnsupportedDeclaration))
    }
    return []
  }
}
