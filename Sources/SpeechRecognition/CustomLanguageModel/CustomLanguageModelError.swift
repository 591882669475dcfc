import Foundation

/// Why custom language model data could not be built, exported, prepared or used.
///
/// The first two cases carry the names of Apple's `SFSpeechError.Code` cases for the same
/// failures (`undefinedTemplateClassName`, `malformedSupplementalModel`); the rest cover what
/// this port adds: a versioned file format, X-SAMPA checking and espeak-ng.
public enum CustomLanguageModelError: Error, LocalizedError, Equatable, Sendable {
  /// A template names a `<class>` that its `PhraseCountsFromTemplates` does not define.
  case undefinedTemplateClassName(className: String, template: String)
  /// A template cannot be expanded (an unclosed `<`, an empty `<>`, a class that refers to
  /// itself, or too many expansions).
  case malformedTemplate(template: String, reason: String)
  /// A data or compiled model file cannot be read as this format; `file` is nil for data in memory.
  case malformedSupplementalModel(file: URL?, reason: String)
  /// The file was written by a newer (or unknown) version of the format.
  case unsupportedFormatVersion(file: URL, found: Int, supported: Int)
  /// A custom pronunciation uses a symbol that is not X-SAMPA (or not one this port knows).
  case unsupportedPhoneme(symbol: String, grapheme: String)
  /// espeak-ng could not be started or does not know the language.
  case phonemizerUnavailable(reason: String)
  /// A file could not be written.
  case writeFailed(file: URL, reason: String)
  /// A ``CustomLanguageModelData/PhraseCountGenerator`` subclass does not override `method`, so it
  /// has no phrases to give.
  case abstractPhraseCountGenerator(type: String, method: String)
  /// The data holds a generator whose phrases can be read only asynchronously, by
  /// ``CustomLanguageModelData/export(to:)``, and a synchronous call needed them.
  case asynchronousPhraseCountGenerator(type: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .undefinedTemplateClassName(let className, let template):
      "the template \"\(template)\" uses the class <\(className)>, which is not defined; add \"\(className)\" to the classes of its PhraseCountsFromTemplates"
    case .malformedTemplate(let template, let reason):
      "the template \"\(template)\" is malformed: \(reason); fix the template text"
    case .malformedSupplementalModel(let file, let reason):
      if let file {
        "the custom language model file \(file.path) is malformed: \(reason); export it again with CustomLanguageModelData.export(to:)"
      } else {
        "the custom language model data is malformed: \(reason)"
      }
    case .unsupportedFormatVersion(let file, let found, let supported):
      "the custom language model file \(file.path) has format version \(found), but this version of VoiceNotes reads only version \(supported); export it again with this version or upgrade VoiceNotes"
    case .unsupportedPhoneme(let symbol, let grapheme):
      "the pronunciation of \"\(grapheme)\" uses \"\(symbol)\", which is not a supported X-SAMPA symbol; see CustomLanguageModelData.supportedPhonemes(locale:)"
    case .phonemizerUnavailable(let reason):
      "espeak-ng cannot turn text into phonemes: \(reason); install Debian's espeak-ng-data package"
    case .writeFailed(let file, let reason):
      "could not write \(file.path): \(reason); check that the folder exists and is writable"
    case .abstractPhraseCountGenerator(let type, let method):
      "the phrase count generator \(type) does not override \(method); a PhraseCountGenerator subclass overrides makeAsyncIterator() to return an Iterator subclass whose next() gives its phrases"
    case .asynchronousPhraseCountGenerator(let type):
      "the data holds a \(type), whose phrases can only be read asynchronously; export the data with export(to:) and prepare the exported file, or insert its phrases as PhraseCount values"
    }
  }
}
