import Foundation
import Synchronization

/// Training data for a custom language model: phrases with counts, templates with classes and
/// custom pronunciations, collected in memory and exported to one versioned file.
///
/// This is Apple's `SFCustomLanguageModelData` without the prefix. Build it with the result builder,
/// export it, then compile the file with
/// ``SpeechLanguageModel/prepareCustomLanguageModel(for:clientIdentifier:configuration:ignoresCache:)``:
///
/// ```swift
/// let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "com.example.commands", version: "1.0") {
///   CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["color": ["red", "blue", "green"]]) {
///     CustomLanguageModelData.TemplatePhraseCountGenerator.Template("Set background to <color>", count: 10_000)
///   }
///   CustomLanguageModelData.CustomPronunciation(grapheme: "Aw Aw R", phonemes: ["aU aU @r"])
///   CustomLanguageModelData.PhraseCount(phrase: "See the sea", count: 100)
/// }
/// try await data.export(to: URL(filePath: "/tmp/commands.json"))
/// ```
///
/// Templates are kept as templates (not only as their expansions) so that the prepared model can
/// turn them into a grammar; template and pronunciation errors surface when the data is exported or
/// compiled, as Apple's do.
public final class CustomLanguageModelData: Sendable {
  /// The language of the training data; recognition must use the same language.
  public let locale: Locale
  /// Identifies the resulting language model on this machine.
  public let identifier: String
  /// Distinguishes versions of the language model with the same identifier.
  public let version: String

  private let contents = Mutex(Contents())
  /// Generators other than template generators, whose phrases are read on export.
  private let generators = Mutex<[HeldGenerator]>([])

  /// A generator the data holds until export. Generators are not `Sendable` (as on Apple's
  /// platforms); the caller hands one over and leaves it unchanged, and export only reads it.
  private struct HeldGenerator: @unchecked Sendable {
    let generator: PhraseCountGenerator
  }

  /// Everything inserted so far, in insertion order.
  struct Contents: Sendable, Hashable {
    var phraseCounts: [PhraseCount] = []
    var templateGroups: [TemplateGroup] = []
    var customPronunciations: [CustomPronunciation] = []
  }

  /// Creates an empty data container; fill it with the `insert` methods.
  public init(locale: Locale, identifier: String, version: String) {
    self.locale = locale
    self.identifier = identifier
    self.version = version
  }

  /// Creates a data container filled by a result builder of phrase counts, templates and pronunciations.
  public convenience init(
    locale: Locale, identifier: String, version: String,
    @DataInsertableBuilder builder: () -> any DataInsertable
  ) {
    self.init(locale: locale, identifier: identifier, version: version)
    builder().insert(data: self)
  }

  /// Reads data that ``export(to:)`` wrote, so it can be inspected, extended or exported again.
  ///
  /// Throws ``CustomLanguageModelError/malformedSupplementalModel(file:reason:)`` for a file that is
  /// not this format and ``CustomLanguageModelError/unsupportedFormatVersion(file:found:supported:)``
  /// for a file from a newer version.
  public convenience init(contentsOf url: URL) throws {
    let file = try CustomLanguageModelFile.read(from: url)
    self.init(locale: Locale(identifier: file.locale), identifier: file.identifier, version: file.version)
    contents.withLock {
      $0.phraseCounts = file.phraseCounts
      $0.templateGroups = file.templateGroups
      $0.customPronunciations = file.customPronunciations
    }
  }

  // MARK: - Adding data

  /// Adds one phrase with its count (its relative weight).
  public func insert(phraseCount: PhraseCount) {
    contents.withLock { $0.phraseCounts.append(phraseCount) }
  }

  /// Adds the phrases of a generator.
  ///
  /// A ``TemplatePhraseCountGenerator``'s templates and classes are added as they are now (later
  /// changes to the generator are not seen) and expanded when exported or compiled. Any other
  /// generator is read when the data is exported: ``export(to:)`` adds its phrases after those
  /// inserted directly, and throws what its iterator throws.
  public func insert(phraseCountGenerator: PhraseCountGenerator) {
    if let templates = phraseCountGenerator as? TemplatePhraseCountGenerator {
      let group = templates.templateGroup
      contents.withLock { $0.templateGroups.append(group) }
    } else {
      let held = HeldGenerator(generator: phraseCountGenerator)
      generators.withLock { $0.append(held) }
    }
  }

  /// Adds a custom pronunciation: a spelling and how it sounds, in X-SAMPA.
  public func insert(term: CustomPronunciation) {
    contents.withLock { $0.customPronunciations.append(term) }
  }

  // MARK: - Reading data back

  /// The phrases inserted directly, in insertion order (template expansions are not included).
  public var phraseCounts: [PhraseCount] { contents.withLock { $0.phraseCounts } }

  /// The custom pronunciations, in insertion order.
  public var customPronunciations: [CustomPronunciation] { contents.withLock { $0.customPronunciations } }

  /// Every template of every generator, in insertion order.
  public var templates: [TemplatePhraseCountGenerator.Template] {
    contents.withLock { $0.templateGroups.flatMap(\.templates) }
  }

  /// Every phrase the data stands for: the direct phrases followed by each template's expansions,
  /// with a template's count split evenly across its expansions.
  ///
  /// Throws ``CustomLanguageModelError/undefinedTemplateClassName(className:template:)`` when a
  /// template names a class its generator does not define, and
  /// ``CustomLanguageModelError/asynchronousPhraseCountGenerator(type:)`` when the data holds a
  /// generator whose phrases only ``export(to:)`` can read.
  public func expandedPhraseCounts() throws -> [PhraseCount] {
    try checkNoPendingGenerators()
    let snapshot = contents.withLock { $0 }
    var result = snapshot.phraseCounts
    for group in snapshot.templateGroups {
      let expander = TemplateExpander(classes: group.classes)
      for template in group.templates {
        result += try expander.phraseCounts(for: template)
      }
    }
    return result
  }

  /// The X-SAMPA symbols custom pronunciations may use for `locale`.
  ///
  /// The same set serves every language: X-SAMPA covers the IPA, and espeak-ng's IPA for any of
  /// its languages maps onto it.
  public static func supportedPhonemes(locale: Locale) -> [String] {
    XSAMPA.supportedSymbols
  }

  // MARK: - Export

  /// Reads the phrases of every inserted ``PhraseCountGenerator``, checks the data and writes it to
  /// `path` as one versioned JSON file, atomically.
  ///
  /// Throws when a template uses an undefined class, a template is malformed, a count is negative,
  /// a pronunciation uses a symbol that is not X-SAMPA, or a generator's iterator throws; nothing
  /// is written then.
  public func export(to path: URL) async throws {
    var snapshot = contents.withLock { $0 }
    for held in generators.withLock({ $0 }) {
      for try await phraseCount in held.generator { snapshot.phraseCounts.append(phraseCount) }
    }
    let file = try validatedFile(snapshot)
    try file.write(to: path)
  }

  /// The data as the export file's contents, after every check ``export(to:)`` makes.
  ///
  /// Throws ``CustomLanguageModelError/asynchronousPhraseCountGenerator(type:)`` when the data
  /// holds a generator whose phrases only ``export(to:)`` can read.
  func validatedFile() throws -> CustomLanguageModelFile {
    try checkNoPendingGenerators()
    return try validatedFile(contents.withLock { $0 })
  }

  private func validatedFile(_ snapshot: Contents) throws -> CustomLanguageModelFile {
    let file = CustomLanguageModelFile(data: self, contents: snapshot)
    try file.validate(source: nil)
    return file
  }

  /// Throws when a generator's phrases have not been read, which only the asynchronous
  /// ``export(to:)`` can do.
  private func checkNoPendingGenerators() throws {
    if let pending = generators.withLock({ $0.first }) {
      throw CustomLanguageModelError.asynchronousPhraseCountGenerator(
        type: String(describing: type(of: pending.generator)))
    }
  }
}
