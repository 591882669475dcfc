/// A declared flag or option: ``Flag`` or ``Option``.
public protocol OptionDeclaration: Sendable {
  /// The declaration shown in help and matched by the parser.
  var spec: OptionSpec { get }
}

extension Flag: OptionDeclaration {}
extension Option: OptionDeclaration {}
