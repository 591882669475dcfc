import Foundation

/// The export file of ``CustomLanguageModelData``: one JSON object with a format name and version,
/// the model's locale, identifier and version, its phrase counts, its template groups (classes with
/// the templates that use them) and its custom pronunciations.
///
/// ```json
/// { "format": "voicenotes.custom-language-model-data", "formatVersion": 1,
///   "locale": "en_US", "identifier": "com.example.commands", "version": "1.0",
///   "phraseCounts": [{ "phrase": "See the sea", "count": 100 }],
///   "templateGroups": [{ "classes": { "color": ["red", "blue"] },
///                        "templates": [{ "body": "Set background to <color>", "count": 10000 }] }],
///   "customPronunciations": [{ "grapheme": "Aw Aw R", "phonemes": ["aU aU @r"] }] }
/// ```
struct CustomLanguageModelFile: Sendable, Hashable, Codable {
  /// The value of `format` in every file of this kind.
  static let formatName = "voicenotes.custom-language-model-data"
  /// The newest format version this code reads and the one it writes.
  static let currentFormatVersion = 1

  var format: String = Self.formatName
  var formatVersion: Int = Self.currentFormatVersion
  var locale: String
  var identifier: String
  var version: String
  var phraseCounts: [CustomLanguageModelData.PhraseCount]
  var templateGroups: [TemplateGroup]
  var customPronunciations: [CustomLanguageModelData.CustomPronunciation]

  /// The file contents for `data`.
  init(data: CustomLanguageModelData, contents: CustomLanguageModelData.Contents) {
    locale = data.locale.identifier
    identifier = data.identifier
    version = data.version
    phraseCounts = contents.phraseCounts
    templateGroups = contents.templateGroups
    customPronunciations = contents.customPronunciations
  }

  /// Checks everything a compiler relies on: counts, templates and their classes, X-SAMPA.
  ///
  /// `source` names the file in errors about the file as a whole.
  func validate(source: URL?) throws {
    for phraseCount in phraseCounts where phraseCount.count < 0 {
      throw CustomLanguageModelError.malformedSupplementalModel(
        file: source, reason: "the phrase \"\(phraseCount.phrase)\" has a negative count (\(phraseCount.count))")
    }
    for group in templateGroups {
      let expander = TemplateExpander(classes: group.classes)
      for template in group.templates {
        _ = try expander.phraseCounts(for: template)
      }
    }
    for pronunciation in customPronunciations {
      guard !pronunciation.grapheme.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw CustomLanguageModelError.malformedSupplementalModel(
          file: source, reason: "a custom pronunciation has an empty grapheme")
      }
      for phonemes in pronunciation.phonemes {
        _ = try XSAMPA.symbols(in: phonemes, grapheme: pronunciation.grapheme)
      }
    }
  }

  // MARK: - Reading and writing

  /// Writes the file as pretty-printed JSON with sorted keys, atomically (a temporary file renamed
  /// into place), so a reader never sees half a file.
  func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let bytes = try encoder.encode(self)
    try Self.writeAtomically(bytes, to: url)
  }

  /// Reads and checks a file that ``write(to:)`` wrote.
  ///
  /// Throws ``CustomLanguageModelError/unsupportedFormatVersion(file:found:supported:)`` for a newer
  /// format version and ``CustomLanguageModelError/malformedSupplementalModel(file:reason:)`` for
  /// anything else that is wrong with it.
  static func read(from url: URL) throws -> CustomLanguageModelFile {
    let bytes: Data
    do {
      bytes = try Data(contentsOf: url)
    } catch {
      throw CustomLanguageModelError.malformedSupplementalModel(file: url, reason: "it cannot be read (\(error))")
    }
    return try parse(bytes, from: url)
  }

  /// Checks and decodes the bytes of a file read from `url` (named in errors).
  static func parse(_ bytes: Data, from url: URL) throws -> CustomLanguageModelFile {
    try checkHeader(of: bytes, in: url, format: formatName, supported: currentFormatVersion)
    let file: CustomLanguageModelFile = try decode(bytes, from: url)
    try file.validate(source: url)
    return file
  }

  /// Checks the `format` and `formatVersion` fields before the rest is decoded, so a newer file fails
  /// with a version error rather than a confusing decoding error.
  static func checkHeader(of bytes: Data, in url: URL, format: String, supported: Int) throws {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: bytes)
    } catch {
      throw CustomLanguageModelError.malformedSupplementalModel(file: url, reason: "it is not JSON")
    }
    guard let fields = object as? [String: Any] else {
      throw CustomLanguageModelError.malformedSupplementalModel(file: url, reason: "it is not a JSON object")
    }
    guard let found = fields["format"] as? String, found == format else {
      throw CustomLanguageModelError.malformedSupplementalModel(
        file: url, reason: "its \"format\" field is not \"\(format)\"")
    }
    guard let version = (fields["formatVersion"] as? NSNumber)?.intValue else {
      throw CustomLanguageModelError.malformedSupplementalModel(
        file: url, reason: "it has no integer \"formatVersion\" field")
    }
    guard (1...supported).contains(version) else {
      throw CustomLanguageModelError.unsupportedFormatVersion(file: url, found: version, supported: supported)
    }
  }

  /// Decodes `bytes`, turning decoding errors into one-line reasons that name the field.
  static func decode<Value: Decodable>(_ bytes: Data, from url: URL) throws -> Value {
    do {
      return try JSONDecoder().decode(Value.self, from: bytes)
    } catch let error as DecodingError {
      throw CustomLanguageModelError.malformedSupplementalModel(file: url, reason: reason(for: error))
    }
  }

  /// Writes `bytes` to `url` through a temporary file in the same folder and a rename.
  static func writeAtomically(_ bytes: Data, to url: URL) throws {
    do {
      try bytes.write(to: url, options: .atomic)
    } catch {
      throw CustomLanguageModelError.writeFailed(file: url, reason: "\(error.localizedDescription)")
    }
  }

  private static func reason(for error: DecodingError) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
      let parts = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
      let joined = parts.joined()
      return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
    switch error {
    case .keyNotFound(let key, let context):
      let parent = path(context.codingPath)
      return "the field \"\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)\" is missing"
    case .typeMismatch(let type, let context):
      return "the field \"\(path(context.codingPath))\" is not a \(type)"
    case .valueNotFound(let type, let context):
      return "the field \"\(path(context.codingPath))\" is null instead of a \(type)"
    case .dataCorrupted(let context):
      return "the field \"\(path(context.codingPath))\" is invalid: \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
