import Foundation

/// The action items of one note, as the task list shows them: the note's title and date, then its
/// items in the order the note lists them.
public struct ActionItemGroup: Sendable, Equatable, Identifiable {
  /// The note's identifier.
  public var noteID: String
  /// The note's title.
  public var noteTitle: String
  /// When the note was recorded or imported.
  public var noteCreatedAt: Date
  /// The note's items that passed the filters.
  public var items: [NoteActionItem]

  /// The note's identifier.
  public var id: String { noteID }

  /// A group of `items` from the note `noteID`.
  public init(noteID: String, noteTitle: String, noteCreatedAt: Date, items: [NoteActionItem]) {
    self.noteID = noteID
    self.noteTitle = noteTitle
    self.noteCreatedAt = noteCreatedAt
    self.items = items
  }
}
