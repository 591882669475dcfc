import Foundation

/// The files ``SpeechLanguageModel/prepareCustomLanguageModel(for:clientIdentifier:configuration:ignoresCache:)``
/// writes: the language model file (phrases, grammar and its GBNF, and the vocabulary unless it has
/// a file of its own) and the optional vocabulary file. Both carry a digest of the source file, so
/// a stale or mismatched pair is detected.
struct CompiledLanguageModelFile: Sendable, Hashable, Codable {
  /// The value of `format` in every compiled language model file.
  static let formatName = "voicenotes.compiled-language-model"
  /// The newest compiled format this code reads and the one it writes.
  static let currentFormatVersion = 1

  var format: String = Self.formatName
  var formatVersion: Int = Self.currentFormatVersion
  var sourceDigest: String
  var clientIdentifier: String?
  var locale: String
  var identifier: String
  var version: String
  var phrases: [SpeechLanguageModel.Phrase]
  var grammar: CommandGrammar
  /// The grammar as GBNF text, for tools that read GBNF (derived from `grammar`).
  var gbnf: String
  var vocabulary: SpeechLanguageModel.Vocabulary?

  /// The compiled vocabulary file.
  struct VocabularyFile: Sendable, Hashable, Codable {
    /// The value of `format` in every compiled vocabulary file.
    static let formatName = "voicenotes.compiled-vocabulary"

    var format: String = Self.formatName
    var formatVersion: Int = CompiledLanguageModelFile.currentFormatVersion
    var sourceDigest: String
    var vocabulary: SpeechLanguageModel.Vocabulary
  }

  /// Writes `model` to the configuration's files, the vocabulary first, each atomically.
  static func write(
    _ model: SpeechLanguageModel, sourceDigest: String, clientIdentifier: String?,
    configuration: SpeechLanguageModel.Configuration
  ) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    if let vocabularyURL = configuration.vocabulary {
      try createFolder(for: vocabularyURL)
      let file = VocabularyFile(sourceDigest: sourceDigest, vocabulary: model.vocabulary)
      try CustomLanguageModelFile.writeAtomically(try encoder.encode(file), to: vocabularyURL)
    }
    let file = CompiledLanguageModelFile(
      sourceDigest: sourceDigest, clientIdentifier: clientIdentifier, locale: model.locale.identifier,
      identifier: model.identifier, version: model.version, phrases: model.phrases, grammar: model.grammar,
      gbnf: model.grammar.gbnf, vocabulary: configuration.vocabulary == nil ? model.vocabulary : nil)
    try createFolder(for: configuration.languageModel)
    try CustomLanguageModelFile.writeAtomically(try encoder.encode(file), to: configuration.languageModel)
  }

  /// Reads the configuration's files back into a model, with the language model file's header.
  static func read(
    configuration: SpeechLanguageModel.Configuration
  ) throws -> (model: SpeechLanguageModel, file: CompiledLanguageModelFile) {
    let url = configuration.languageModel
    let file: CompiledLanguageModelFile = try decode(url, format: formatName)
    let vocabulary: SpeechLanguageModel.Vocabulary
    if let vocabularyURL = configuration.vocabulary {
      let vocabularyFile: VocabularyFile = try decode(vocabularyURL, format: VocabularyFile.formatName)
      guard vocabularyFile.sourceDigest == file.sourceDigest else {
        throw CustomLanguageModelError.malformedSupplementalModel(
          file: vocabularyURL, reason: "it was prepared from other data than \(url.lastPathComponent)")
      }
      vocabulary = vocabularyFile.vocabulary
    } else if let inline = file.vocabulary {
      vocabulary = inline
    } else {
      throw CustomLanguageModelError.malformedSupplementalModel(
        file: url, reason: "its vocabulary is in a separate file; pass that file as the configuration's vocabulary")
    }
    let model = SpeechLanguageModel(
      locale: Locale(identifier: file.locale), identifier: file.identifier, version: file.version,
      phrases: file.phrases, vocabulary: vocabulary, grammar: file.grammar)
    return (model, file)
  }

  /// A 64-bit FNV-1a digest of `bytes` and the compiled format version, as 16 hex digits.
  static func digest(of bytes: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes + Data("\(formatName)/\(currentFormatVersion)".utf8) {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  private static func decode<Value: Decodable>(_ url: URL, format: String) throws -> Value {
    let bytes: Data
    do {
      bytes = try Data(contentsOf: url)
    } catch {
      throw CustomLanguageModelError.malformedSupplementalModel(
        file: url, reason: "it cannot be read (\(error.localizedDescription)); prepare the model first")
    }
    try CustomLanguageModelFile.checkHeader(of: bytes, in: url, format: format, supported: currentFormatVersion)
    return try CustomLanguageModelFile.decode(bytes, from: url)
  }

  private static func createFolder(for url: URL) throws {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw CustomLanguageModelError.writeFailed(file: url, reason: "its folder cannot be created (\(error))")
    }
  }
}
