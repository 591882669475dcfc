import Foundation
import LanguageModels

/// The assistant's calendar: the notes recorded between two dates.
public struct NotesByDateTool: Tool {
  /// What the model generates to list notes by date.
  @Generable
  public struct Arguments: Sendable {
    /// The first day, `YYYY-MM-DD`.
    @Guide(description: "First day, as YYYY-MM-DD", .pattern(#"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"#))
    public var from: String
    /// The last day, `YYYY-MM-DD`, included.
    @Guide(description: "Last day, as YYYY-MM-DD, included", .pattern(#"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"#))
    public var to: String
  }

  /// The tool's name, as the model calls it.
  public let name = "notesBetween"
  /// When the model should call it.
  public let description = "Lists the notes recorded between two dates with their summaries; numbered to cite."

  let library: Library
  let book: CitationBook
  /// The most notes one call lists.
  static let noteLimit = 8

  /// A listing of `library`'s notes whose lines are numbered in `book`.
  public init(library: Library, book: CitationBook) {
    self.library = library
    self.book = book
  }

  /// One numbered line per note, oldest first, with its summary and tasks.
  public func call(arguments: Arguments) async throws -> String {
    guard let start = Self.day(arguments.from), let last = Self.day(arguments.to) else {
      return "Give the dates as YYYY-MM-DD."
    }
    let notes = try await library.notes(recordedFrom: start, to: last.addingTimeInterval(86_400), limit: Self.noteLimit)
    var lines: [String] = []
    for summary in notes {
      let note = try await library.note(summary.id)
      lines.append(CitationBook.line(book.add(NoteExcerpt.overview(of: note), of: note, at: nil)))
    }
    return lines.isEmpty ? "No notes were recorded then." : lines.joined(separator: "\n")
  }

  /// Midnight, in this machine's time zone, of the day `text` names.
  static func day(_ text: String) -> Date? {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    var components = DateComponents()
    (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
    return Calendar.current.date(from: components)
  }
}
