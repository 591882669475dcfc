/// What ``NoteAssistant`` answered: the text, and the sources it cites.
public struct NoteAnswer: Sendable, Equatable, Codable {
  /// The answer, with citation numbers in brackets: "Call the dentist on Tuesday [2]."
  public var text: String
  /// The sources the text cites, in the order of their numbers; only numbers the text uses.
  public var citations: [NoteCitation]
  /// Whether the answer says the notes do not hold the answer (it then cites nothing).
  public var isAbstention: Bool

  /// An answer of `text` citing `citations`.
  public init(text: String, citations: [NoteCitation], isAbstention: Bool) {
    self.text = text
    self.citations = citations
    self.isAbstention = isAbstention
  }
}
