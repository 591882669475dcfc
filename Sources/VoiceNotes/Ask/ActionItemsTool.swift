import Foundation
import LanguageModels

/// The assistant's task list: action items across the notes, by person and by state.
public struct ActionItemsTool: Tool {
  /// What the model generates to list tasks.
  @Generable
  public struct Arguments: Sendable {
    /// Only tasks involving this person, when given.
    @Guide(description: "A person's name, to list only their tasks; leave out for everyone")
    public var person: String?
    /// Which tasks to list.
    @Guide(description: "Which tasks", .anyOf(["open", "done", "all"]))
    public var state: String
  }

  /// The tool's name, as the model calls it.
  public let name = "listActionItems"
  /// When the model should call it.
  public let description =
    "Lists action items from the notes, optionally for one person; returns numbered lines to cite."

  let library: Library
  let book: CitationBook
  /// The most tasks one call lists.
  static let itemLimit = 12

  /// A task list over `library` whose lines are numbered in `book`.
  public init(library: Library, book: CitationBook) {
    self.library = library
    self.book = book
  }

  /// One numbered line per task, newest notes first.
  public func call(arguments: Arguments) async throws -> String {
    let person = arguments.person?.trimmingCharacters(in: .whitespaces)
    let groups = try await library.actionItems(
      includeCompleted: arguments.state != "open", person: person?.isEmpty == false ? person : nil)
    var lines: [String] = []
    for group in groups {
      for item in group.items where arguments.state != "done" || item.isCompleted {
        guard lines.count < Self.itemLimit, let note = try await library.summary(of: group.noteID) else { continue }
        let people = item.people.isEmpty ? "" : " (with \(item.people.joined(separator: ", ")))"
        let text = "Task: \(item.task)\(people)" + (item.isCompleted ? ", done" : ", not done yet")
        lines.append(CitationBook.line(book.add(text, of: note, at: nil)))
      }
    }
    return lines.isEmpty ? "No action items match." : lines.joined(separator: "\n")
  }
}
