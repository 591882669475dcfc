import AudioIO
import Foundation
import SpeechRecognition

/// The names, places and jargon a person has taught the library, applied as biasing to every
/// transcription so that Whisper spells them the person's way.
///
/// The list lives in the library as `vocabulary.json`; ``prepared(in:)`` turns it into a custom
/// language model (Apple's `SFCustomLanguageModelData` shape: one phrase count per term) compiled
/// into `.vocabulary/`, rebuilt only when the list changes.
public struct PersonalVocabulary: Codable, Equatable, Sendable {
  /// The terms, in the order they were added.
  public private(set) var terms: [String]

  /// An empty vocabulary.
  public init(terms: [String] = []) {
    self.terms = []
    for term in terms.map(Self.normalized) where !term.isEmpty && index(of: term) == nil { self.terms.append(term) }
  }

  /// The longest term, in characters: a name or a phrase, not a paragraph.
  public static let maximumTermLength = 100
  /// Characters besides letters, digits and spaces that a spoken term may be written with
  /// ("O'Brien", "Wi-Fi", "Node.js", "AT&T", "C++", "C#", "24/7", "@handle").
  static let allowedPunctuation = Set("'’-.&+#@/")

  /// Adds `newTerms` (spaces trimmed and collapsed; a term already present, ignoring case, is
  /// skipped); returns the terms actually added. Throws, adding none, when a term is not one a
  /// person could say (see ``check(_:)``).
  @discardableResult
  public mutating func add(_ newTerms: [String]) throws(VocabularyError) -> [String] {
    let normalized = newTerms.map(Self.normalized).filter { !$0.isEmpty }
    for term in normalized { try Self.check(term) }
    var added: [String] = []
    for term in normalized where index(of: term) == nil {
      terms.append(term)
      added.append(term)
    }
    return added
  }

  /// Throws when `term` cannot be listened for: longer than ``maximumTermLength``, with fewer
  /// than two characters or without a letter or digit, or written with symbols nobody says (quotes, brackets,
  /// backslashes, emoji). Such terms would only push Whisper toward writing them where they
  /// were never said.
  public static func check(_ term: String) throws(VocabularyError) {
    guard term.count <= maximumTermLength else {
      throw .unusableTerm(term, reason: "it is longer than \(maximumTermLength) characters")
    }
    let unsayable = Set(
      term.filter { !($0.isLetter || $0.isNumber || $0.isWhitespace || allowedPunctuation.contains($0)) })
    guard unsayable.isEmpty else {
      let shown = unsayable.sorted().map { String($0) }.joined(separator: " ")
      throw .unusableTerm(term, reason: "it is written with characters nobody says (\(shown))")
    }
    guard term.count >= 2, term.contains(where: { $0.isLetter || $0.isNumber }) else {
      throw .unusableTerm(term, reason: "it is too short to listen for")
    }
  }

  /// Removes `oldTerms` (ignoring case); returns the stored spellings removed and the terms that
  /// were not there.
  @discardableResult
  public mutating func remove(_ oldTerms: [String]) -> (removed: [String], missing: [String]) {
    var removed: [String] = []
    var missing: [String] = []
    for term in oldTerms.map(Self.normalized) {
      if let index = index(of: term) { removed.append(terms.remove(at: index)) } else { missing.append(term) }
    }
    return (removed, missing)
  }

  private func index(of term: String) -> Int? {
    terms.firstIndex { $0.compare(term, options: [.caseInsensitive]) == .orderedSame }
  }

  private static func normalized(_ term: String) -> String {
    term.withControlCharactersAsSpaces.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  // MARK: - Storage

  /// The vocabulary file of `library`.
  public static func file(in library: URL) -> URL { library.appendingPathComponent("vocabulary.json") }

  /// The library's vocabulary (empty when none was saved).
  public static func load(from library: URL) throws -> PersonalVocabulary {
    let url = file(in: library)
    guard FileManager.default.fileExists(atPath: url.path) else { return PersonalVocabulary() }
    do {
      return try JSONDecoder().decode(PersonalVocabulary.self, from: Data(contentsOf: url))
    } catch {
      throw VocabularyError.unreadable(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  /// Loads the library's vocabulary, lets `change` edit it and saves the result, returning what
  /// `change` returns. The library's vocabulary lock is held throughout, so when several
  /// processes edit the list at once every edit is kept; nothing is saved when `change` throws.
  public static func update<Result>(
    in library: URL, _ change: (inout PersonalVocabulary) throws -> Result
  ) throws -> Result {
    let lock = try editLock(in: library)
    defer { lock.release() }
    var vocabulary = try load(from: library)
    let result = try change(&vocabulary)
    try vocabulary.save(to: library)
    return result
  }

  /// Takes the lock that serialises edits of `library`'s vocabulary (waiting for another process
  /// to finish its edit), creating the library folder first when it is new.
  private static func editLock(in library: URL) throws(VocabularyError) -> LibraryLock {
    let path = file(in: library).path
    do {
      try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    } catch {
      throw .unwritable(path: path, detail: FileSystemFailure.reason(for: error))
    }
    return try LibraryLock.held(at: library.appendingPathComponent(".vocabulary.lock")) {
      VocabularyError.unwritable(path: path, detail: $0)
    }
  }

  /// Writes the vocabulary into `library`, atomically. Use ``update(in:_:)`` to change the saved
  /// list, so that a concurrent edit is not lost.
  public func save(to library: URL) throws {
    let url = Self.file(in: library)
    do {
      try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(self).write(to: url, options: .atomic)
    } catch {
      throw VocabularyError.unwritable(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  // MARK: - Custom language model

  /// The custom language model for the library's vocabulary, compiled when the list has
  /// changed since the last time; nil when the vocabulary is empty.
  public static func prepared(in library: URL) async throws -> SpeechLanguageModel.Configuration? {
    let list = file(in: library)
    // Every command that opens the library asks for this: with no list there is nothing to read.
    guard FileManager.default.fileExists(atPath: list.path) else { return nil }
    guard try !load(from: library).terms.isEmpty else { return nil }
    let folder = library.appendingPathComponent(".vocabulary", isDirectory: true)
    let configuration = SpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("model.json"), vocabulary: nil,
      weight: SpeechLanguageModel.Configuration.defaultWeight)
    if isNewer(configuration.languageModel, than: list) { return configuration }
    // Two processes that find the model stale compile it one after the other, and the second
    // finds it fresh.
    let lock = try editLock(in: library)
    defer { lock.release() }
    if isNewer(configuration.languageModel, than: list) { return configuration }
    let vocabulary = try load(from: library)
    guard !vocabulary.terms.isEmpty else { return nil }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let data = CustomLanguageModelData(
      locale: Locale(identifier: "en_US"), identifier: "voicenotes.vocabulary", version: "1")
    for term in vocabulary.terms {
      data.insert(phraseCount: CustomLanguageModelData.PhraseCount(phrase: term, count: 10))
    }
    let exported = folder.appendingPathComponent("data.json")
    try await data.export(to: exported)
    try await SpeechLanguageModel.prepareCustomLanguageModel(
      for: exported, clientIdentifier: "voicenotes", configuration: configuration, ignoresCache: true)
    return configuration
  }

  /// Whether `file` exists and was written after `other` (the compiled model is up to date).
  private static func isNewer(_ file: URL, than other: URL) -> Bool {
    let manager = FileManager.default
    guard let built = (try? manager.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date,
      let edited = (try? manager.attributesOfItem(atPath: other.path))?[.modificationDate] as? Date
    else { return false }
    return built > edited
  }
}

/// Why the vocabulary could not be read or written.
public enum VocabularyError: Error, LocalizedError, Equatable, Sendable {
  /// The vocabulary file exists but is not a vocabulary.
  case unreadable(path: String, detail: String)
  /// The vocabulary file could not be written.
  case unwritable(path: String, detail: String)
  /// A term that cannot be listened for, and why.
  case unusableTerm(String, reason: String)

  /// A one-line message that says what to do.
  public var errorDescription: String? {
    switch self {
    case .unreadable(let path, let detail):
      "\(path): not a readable vocabulary (\(detail)); fix or delete the file and add the terms again"
    case .unwritable(let path, let detail):
      "\(path): could not save the vocabulary (\(detail)); check the library folder is writable"
    case .unusableTerm(let term, let reason):
      "'\(term.count > 40 ? term.prefix(40) + "…" : term)' cannot be a vocabulary term: \(reason); "
        + "add names and words as they are said, of 2 to \(PersonalVocabulary.maximumTermLength) characters"
    }
  }
}
