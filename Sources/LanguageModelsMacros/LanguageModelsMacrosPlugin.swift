@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin that serves this package's macros.
///
/// SwiftCompilerPlugin is not shipped with the toolchain, so the entry point talks to the
/// compiler through SwiftCompilerPluginMessageHandling directly.
@main
struct LanguageModelsMacrosPlugin {
  static func main() throws {
    let connection = try StandardIOMessageConnection()
    let listener = CompilerPluginMessageListener(connection: connection, provider: MacroProvider())
    try listener.main()
  }
}

/// Resolves the macro type names the compiler asks for.
struct MacroProvider: PluginProvider {
  /// Every macro this plugin implements, by type name.
  let macros: [String: Macro.Type] = [
    "GenerableMacro": GenerableMacro.self,
    "GuideMacro": GuideMacro.self,
  ]

  var features: [PluginFeature] { [.loadPluginLibrary] }

  func resolveMacro(moduleName: String, typeName: String) throws -> Macro.Type {
    guard let macro = macros[typeName] else {
      throw PluginError(description: "LanguageModelsMacros has no macro named \(typeName)")
    }
    return macro
  }

  func loadPluginLibrary(libraryPath: String, moduleName: String) throws {}
}

/// An error reported to the compiler.
struct PluginError: Error, CustomStringConvertible {
  var description: String
}
