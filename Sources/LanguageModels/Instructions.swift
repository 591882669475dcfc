/// What the model should do and how: the first entry of a session's transcript.
///
/// Build with a string or the ``InstructionsBuilder`` result builder, which joins its parts
/// with newlines:
///
/// ```swift
/// let session = LanguageModelSession {
///   "You write short, accurate summaries."
///   "Never invent names."
/// }
/// ```
public struct Instructions: Sendable, Equatable, InstructionsRepresentable {
  /// The text given to the model as its system message.
  public var text: String

  /// Instructions with `text`.
  public init(_ text: String) { self.text = text }

  /// The instructions a value stands for: a `@Generable` value as its JSON, other instructions
  /// as themselves.
  public init(_ content: some InstructionsRepresentable) { self = content.instructionsRepresentation }

  /// Instructions assembled by a result builder.
  public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
    self = try content()
  }

  /// The instructions themselves (`return` keeps the requirement's builder off this witness, as
  /// for ``Prompt/promptRepresentation``).
  public var instructionsRepresentation: Instructions { return self }
}

/// A value that can stand in ``Instructions``.
public protocol InstructionsRepresentable {
  /// The value as instructions; a conformance may write it as an ``InstructionsBuilder`` block.
  @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

extension String: InstructionsRepresentable {
  /// The string as instructions.
  public var instructionsRepresentation: Instructions { return Instructions(self) }
}

/// Builds ``Instructions`` from strings and other instructions, one per line.
@resultBuilder
public enum InstructionsBuilder {
  /// Joins the parts with newlines.
  public static func buildBlock(_ components: any InstructionsRepresentable...) -> Instructions {
    Instructions(components.map(\.instructionsRepresentation.text).filter { !$0.isEmpty }.joined(separator: "\n"))
  }

  /// Joins the parts of a loop with newlines.
  public static func buildArray(_ components: [any InstructionsRepresentable]) -> Instructions {
    Instructions(components.map(\.instructionsRepresentation.text).filter { !$0.isEmpty }.joined(separator: "\n"))
  }

  /// An `if` without `else` contributes nothing when false.
  public static func buildOptional(_ component: (any InstructionsRepresentable)?) -> Instructions {
    component?.instructionsRepresentation ?? Instructions("")
  }

  /// The taken branch of an `if`/`else`.
  public static func buildEither(first component: any InstructionsRepresentable) -> Instructions {
    component.instructionsRepresentation
  }

  /// The taken branch of an `if`/`else`.
  public static func buildEither(second component: any InstructionsRepresentable) -> Instructions {
    component.instructionsRepresentation
  }

  /// Availability-limited parts pass through.
  public static func buildLimitedAvailability(_ component: any InstructionsRepresentable) -> Instructions {
    component.instructionsRepresentation
  }
}
