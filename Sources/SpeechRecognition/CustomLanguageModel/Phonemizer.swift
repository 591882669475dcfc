import CEspeak
import Foundation

/// Turns text into phonemes (IPA) with espeak-ng's library; the only code that touches espeak-ng.
///
/// espeak-ng keeps its voice, dictionaries and output buffer in process-wide globals and is not
/// thread-safe, so there is exactly one phonemizer, ``shared``, an actor that initialises the library
/// on first use and serialises every call:
///
/// ```swift
/// let ipa = try await Phonemizer.shared.ipa(for: "see the sea", locale: Locale(identifier: "en_US"))
/// // "sˈiː ðə sˈiː"
/// ```
public actor Phonemizer {
  /// The one phonemizer of the process.
  public static let shared = Phonemizer()

  private var started: Result<Void, CustomLanguageModelError>?
  private var voice: String?
  private var wordCache: [String: [String: String]] = [:]

  private init() {}

  /// The IPA for `text`, words separated by spaces, clauses by spaces too.
  ///
  /// Throws ``CustomLanguageModelError/phonemizerUnavailable(reason:)`` when espeak-ng cannot
  /// start or has no voice for `locale`'s language.
  public func ipa(for text: String, locale: Locale) throws -> String {
    try select(locale: locale)
    return translate(text)
  }

  /// The IPA for each word on its own (no linking between words), in order; cached per language.
  public func ipa(forWords words: [String], locale: Locale) throws -> [String] {
    let name = try select(locale: locale)
    var cache = wordCache[name, default: [:]]
    defer { wordCache[name] = cache }
    return words.map { word in
      if let known = cache[word] { return known }
      let ipa = translate(word)
      cache[word] = ipa
      return ipa
    }
  }

  /// The X-SAMPA for `text`: espeak-ng's IPA through ``XSAMPA/xsampa(forIPA:)``.
  public func xsampa(for text: String, locale: Locale) throws -> String {
    XSAMPA.xsampa(forIPA: try ipa(for: text, locale: locale))
  }

  /// The espeak-ng voice names tried for `locale`, most specific first (`en-us`, then `en`).
  public static func voiceNames(for locale: Locale) -> [String] {
    let language = locale.language.languageCode?.identifier.lowercased() ?? "en"
    var names: [String] = []
    if let region = locale.region?.identifier.lowercased() {
      names.append("\(language)-\(region)")
    }
    names.append(language)
    return names
  }

  // MARK: - espeak-ng

  /// Starts espeak-ng once (the result, good or bad, is kept) and selects the voice for `locale`.
  @discardableResult
  private func select(locale: Locale) throws -> String {
    if started == nil {
      // Synchronous mode with no audio device: we only ask for phonemes. DONT_EXIT keeps a missing
      // data folder from ending the process.
      let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
      started =
        rate > 0
        ? .success(())
        : .failure(.phonemizerUnavailable(reason: "espeak_Initialize failed (is espeak-ng-data installed?)"))
    }
    try started?.get()
    let candidates = Self.voiceNames(for: locale)
    if let voice, candidates.contains(voice) { return voice }
    for name in candidates where espeak_SetVoiceByName(name) == EE_OK {
      voice = name
      return name
    }
    // A failed selection may have disturbed the current voice: select again next time.
    voice = nil
    throw CustomLanguageModelError.phonemizerUnavailable(
      reason: "no espeak-ng voice for \(locale.identifier) (tried \(candidates.joined(separator: ", ")))")
  }

  /// espeak-ng's IPA for `text` with the selected voice, clause by clause.
  private func translate(_ text: String) -> String {
    var clauses: [String] = []
    text.withCString { start in
      var cursor: UnsafeRawPointer? = UnsafeRawPointer(start)
      while let before = cursor {
        guard let phonemes = espeak_TextToPhonemes(&cursor, Int32(espeakCHARS_UTF8), Int32(espeakPHONEMES_IPA))
        else { break }
        let clause = String(cString: phonemes).trimmingCharacters(in: .whitespacesAndNewlines)
        if !clause.isEmpty { clauses.append(clause) }
        // espeak-ng sets the cursor to nil at the end; stop as well if it did not move.
        if cursor == before { break }
      }
    }
    return clauses.joined(separator: " ")
  }
}
