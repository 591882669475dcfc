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
    add(terms)
  }

  /// Adds `newTerms` (trimmed; a term already present, ignoring case, is skipped); returns the
  /// terms actually added.
  @discardableResult
  public mutating func add(_ newTerms: [String]) -> [String] {
    var added: [String] = []
    for term in newTerms.map(Self.normalized) where !term.isEmpty && index(of: term) == nil {
      terms.append(term)
      added.append(term)
    }
    return added
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
    term.split(whereSeparator: \.isWhitespace).joined(separator: " ")
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
      throw VocabularyError.unreadable(path: url.path, detail: error.localizedDescription)
    }
  }

  /// Writes the vocabulary into `library`, atomically.
  public func save(to library: URL) throws {
    let url = Self.file(in: library)
    do {
      try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(self).write(to: url, options: .atomic)
    } catch {
      throw VocabularyError.unwritable(path: url.path, detail: error.localizedDescription)
    }
  }

  // MARK: - Custom language model

  /// The custom language model for the library's vocabulary, compiled when the list has
  /// changed since the last time; nil when the vocabulary is empty.
  public static func prepared(in library: URL) async throws -> SpeechLanguageModel.Configuration? {
    let list = file(in: library)
    // Every command that opens the library asks for this: with no list there is nothing to read.
    guard FileManager.default.fileExists(atPath: list.path) else { return nil }
    let vocabulary = try load(from: library)
    guard !vocabulary.terms.isEmpty else { return nil }
    let folder = library.appendingPathComponent(".vocabulary", isDirectory: true)
    let configuration = SpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("model.json"), vocabulary: nil,
      weight: SpeechLanguageModel.Configuration.defaultWeight)
    if isNewer(configuration.languageModel, than: list) { return configuration }
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

  /// A one-line message that says what to do.
  public var errorDescription: String? {
    switch self {
    case .unreadable(let path, let detail):
      "\(path): not a readable vocabulary (\(detail)); fix or delete the file and add the terms again"
    case .unwritable(let path, let detail):
      "\(path): could not save the vocabulary (\(detail)); check the library folder is writable"
    }
  }
}
