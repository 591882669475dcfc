/// A request to the model: one user turn of a session.
///
/// Build with a string or the ``PromptBuilder`` result builder, which joins its parts with
/// newlines:
///
/// ```swift
/// let response = try await session.respond {
///   "Summarise this note:"
///   transcript
/// }
/// ```
public struct Prompt: Sendable, Equatable, PromptRepresentable {
  /// The text given to the model as the user's message.
  public var text: String

  /// A prompt with `text`.
  public init(_ text: String) { self.text = text }

  /// The prompt a value stands for: a `@Generable` value as its JSON, another prompt as itself.
  public init(_ content: some PromptRepresentable) { self = content.promptRepresentation }

  /// A prompt assembled by a result builder.
  public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
    self = try content()
  }

  /// The prompt itself. (Each witness in this module says `return`, which keeps the
  /// requirement's ``PromptBuilder`` off it: the builder reads its parts' representations, so
  /// applied here it would call itself.)
  public var promptRepresentation: Prompt { return self }
}

/// A value that can stand in ``Prompt``.
public protocol PromptRepresentable {
  /// The value as a prompt; a conformance may write it as a ``PromptBuilder`` block.
  @PromptBuilder var promptRepresentation: Prompt { get }
}

extension String: PromptRepresentable {
  /// The string as a prompt.
  public var promptRepresentation: Prompt { return Prompt(self) }
}

/// Builds ``Prompt`` from strings and other instructions, one per line.
@resultBuilder
public enum PromptBuilder {
  /// Joins the parts with newlines.
  public static func buildBlock(_ components: any PromptRepresentable...) -> Prompt {
    Prompt(components.map(\.promptRepresentation.text).filter { !$0.isEmpty }.joined(separator: "\n"))
  }

  /// Joins the parts of a loop with newlines.
  public static func buildArray(_ components: [any PromptRepresentable]) -> Prompt {
    Prompt(components.map(\.promptRepresentation.text).filter { !$0.isEmpty }.joined(separator: "\n"))
  }

  /// An `if` without `else` contributes nothing when false.
  public static func buildOptional(_ component: (any PromptRepresentable)?) -> Prompt {
    component?.promptRepresentation ?? Prompt("")
  }

  /// The taken branch of an `if`/`else`.
  public static func buildEither(first component: any PromptRepresentable) -> Prompt {
    component.promptRepresentation
  }

  /// The taken branch of an `if`/`else`.
  public static func buildEither(second component: any PromptRepresentable) -> Prompt {
    component.promptRepresentation
  }

  /// Availability-limited parts pass through.
  public static func buildLimitedAvailability(_ component: any PromptRepresentable) -> Prompt {
    component.promptRepresentation
  }
}
