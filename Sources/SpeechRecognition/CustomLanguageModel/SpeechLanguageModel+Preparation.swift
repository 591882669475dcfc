import Foundation

extension SpeechLanguageModel {
  /// Compiles an exported data file into the configuration's files, so recognition can load it with
  /// ``init(configuration:)``.
  ///
  /// Expands templates, sums and normalises the phrase counts into probabilities, builds the
  /// command grammar and converts the pronunciations to IPA, then writes each output atomically.
  /// Unless `ignoresCache` is true, nothing is rewritten when the outputs already hold this exact
  /// source for this client. Throws ``CustomLanguageModelError`` when the file is malformed, from a
  /// newer format version, uses an undefined template class or an unsupported X-SAMPA symbol, or
  /// when an output cannot be written.
  @discardableResult
  public static func prepareCustomLanguageModel(
    for asset: URL, clientIdentifier: String, configuration: Configuration, ignoresCache: Bool = false
  ) async throws -> SpeechLanguageModel {
    try prepare(
      asset: asset, clientIdentifier: clientIdentifier, configuration: configuration, ignoresCache: ignoresCache)
  }

  /// Compiles an exported data file into the configuration's files (Apple's form without a client
  /// identifier); see ``prepareCustomLanguageModel(for:clientIdentifier:configuration:ignoresCache:)``.
  @discardableResult
  public static func prepareCustomLanguageModel(
    for asset: URL, configuration: Configuration, ignoresCache: Bool = false
  ) async throws -> SpeechLanguageModel {
    try prepare(asset: asset, clientIdentifier: nil, configuration: configuration, ignoresCache: ignoresCache)
  }

  /// Compiles an exported data file as the async form does, on a background queue, then calls
  /// `completion` there with nil or the ``CustomLanguageModelError`` that stopped it: Apple's
  /// completion-handler form.
  public static func prepareCustomLanguageModel(
    for asset: URL, clientIdentifier: String, configuration: Configuration, ignoresCache: Bool = false,
    completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    prepareInBackground(
      asset: asset, clientIdentifier: clientIdentifier, configuration: configuration, ignoresCache: ignoresCache,
      completion: completion)
  }

  /// The completion-handler form without a client identifier.
  public static func prepareCustomLanguageModel(
    for asset: URL, configuration: Configuration, ignoresCache: Bool = false,
    completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    prepareInBackground(
      asset: asset, clientIdentifier: nil, configuration: configuration, ignoresCache: ignoresCache,
      completion: completion)
  }

  private static func prepareInBackground(
    asset: URL, clientIdentifier: String?, configuration: Configuration, ignoresCache: Bool,
    completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    DispatchQueue.global(qos: .userInitiated).async {
      do {
        _ = try prepare(
          asset: asset, clientIdentifier: clientIdentifier, configuration: configuration, ignoresCache: ignoresCache)
        completion(nil)
      } catch {
        completion(error)
      }
    }
  }

  /// Loads a model that ``prepareCustomLanguageModel(for:clientIdentifier:configuration:ignoresCache:)``
  /// wrote to `configuration`'s files.
  ///
  /// Throws ``CustomLanguageModelError/malformedSupplementalModel(file:reason:)`` when a file is
  /// missing, damaged or does not belong with the other, and
  /// ``CustomLanguageModelError/unsupportedFormatVersion(file:found:supported:)`` for a newer format.
  public init(configuration: Configuration) throws {
    self = try CompiledLanguageModelFile.read(configuration: configuration).model
  }

  private static func prepare(
    asset: URL, clientIdentifier: String?, configuration: Configuration, ignoresCache: Bool
  ) throws -> SpeechLanguageModel {
    let bytes: Data
    do {
      bytes = try Data(contentsOf: asset)
    } catch {
      throw CustomLanguageModelError.malformedSupplementalModel(
        file: asset, reason: "it cannot be read (\(error.localizedDescription))")
    }
    let digest = CompiledLanguageModelFile.digest(of: bytes)
    if !ignoresCache, let cached = try? CompiledLanguageModelFile.read(configuration: configuration),
      cached.file.sourceDigest == digest, cached.file.clientIdentifier == clientIdentifier
    {
      return cached.model
    }
    let source = try CustomLanguageModelFile.parse(bytes, from: asset)
    let model = try compile(source)
    try CompiledLanguageModelFile.write(
      model, sourceDigest: digest, clientIdentifier: clientIdentifier, configuration: configuration)
    return model
  }
}
