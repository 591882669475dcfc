import LanguageModels

/// The assistant's reader: more of a note already cited, or a stretch of its recording.
public struct ReadNoteTool: Tool {
  /// What the model generates to read.
  @Generable
  public struct Arguments: Sendable {
    /// The number of an excerpt from the note.
    @Guide(description: "The number of an excerpt from the note, as in [3]", .range(1...999))
    public var excerpt: Int
    /// Where to start reading, in seconds; from the start when absent.
    @Guide(description: "Second of the recording to start at; leave out for the start", .range(0...86_400))
    public var fromSecond: Int?
    /// Where to stop reading, in seconds; to the end when absent.
    @Guide(description: "Second of the recording to stop at; leave out for the end", .range(0...86_400))
    public var toSecond: Int?
  }

  /// The tool's name, as the model calls it.
  public let name = "readNote"
  /// When the model should call it.
  public let description = "Reads more of the note an excerpt came from; returns numbered excerpts to cite."

  let library: Library
  let book: CitationBook
  /// The most excerpts one call returns.
  static let excerptLimit = 4

  /// A reader of `library`'s notes whose excerpts are numbered in `book`.
  public init(library: Library, book: CitationBook) {
    self.library = library
    self.book = book
  }

  /// The note's summary and action items, then its transcript in the range asked for.
  public func call(arguments: Arguments) async throws -> String {
    guard let cited = book.citation(arguments.excerpt) else {
      return "There is no excerpt [\(arguments.excerpt)]; use a number from an earlier excerpt."
    }
    let note = try await library.note(cited.noteID)
    var lines = [CitationBook.line(book.add(NoteExcerpt.overview(of: note), of: note, at: nil))]
    let stretch = NoteExcerpt.range(
      from: arguments.fromSecond.map(Double.init), to: arguments.toSecond.map(Double.init), in: note)
    for excerpt in stretch.prefix(Self.excerptLimit) {
      lines.append(CitationBook.line(book.add(excerpt.text, of: note, at: excerpt.time)))
    }
    return lines.joined(separator: "\n")
  }
}
