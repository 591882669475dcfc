import Foundation
import Synchronization

extension AssetInventory {
  private static let reservations = Mutex<[Locale]>([])

  /// How many locales an app may reserve at once, as on Apple's platforms.
  public static var maximumReservedLocales: Int { 10 }

  /// The locales this process has reserved, in the order they were reserved.
  ///
  /// On Apple's platforms a reservation keeps a locale's assets from being removed while the app
  /// uses them. Here models stay installed until removed by hand, so a reservation only records
  /// the app's intent, for this process.
  public static var reservedLocales: [Locale] {
    get async { reservations.withLock { $0 } }
  }

  /// Reserves `locale`; returns false when it was reserved already.
  ///
  /// - Throws: ``SpeechTranscriptionError/unsupportedLocale(_:model:)`` for a language the default
  ///   model does not speak, and ``SpeechTranscriptionError/invalidState(_:)`` when
  ///   ``maximumReservedLocales`` are reserved already.
  @discardableResult
  public static func reserve(locale: Locale) async throws -> Bool {
    guard let supported = SpeechTranscriber.supportedLocale(equivalentTo: locale, model: .default) else {
      throw SpeechTranscriptionError.unsupportedLocale(locale, model: SpeechModel.default.name)
    }
    return try reservations.withLock { reserved throws(SpeechTranscriptionError) in
      if reserved.contains(supported) { return false }
      guard reserved.count < maximumReservedLocales else {
        throw .invalidState("\(maximumReservedLocales) locales are reserved already; release one first")
      }
      reserved.append(supported)
      return true
    }
  }

  /// Releases a reservation made with ``reserve(locale:)``; returns false when there was none.
  @discardableResult
  public static func release(reservedLocale locale: Locale) async -> Bool {
    let supported = SpeechTranscriber.supportedLocale(equivalentTo: locale, model: .default) ?? locale
    return reservations.withLock { reserved in
      guard let index = reserved.firstIndex(of: supported) else { return false }
      reserved.remove(at: index)
      return true
    }
  }
}

extension AssetInventory {
  /// The name the first Speech 26 betas used for ``reservedLocales``.
  @available(*, deprecated, renamed: "reservedLocales")
  public static var allocatedLocales: [Locale] {
    get async { await reservedLocales }
  }

  /// The name the first Speech 26 betas used for ``maximumReservedLocales``.
  @available(*, deprecated, renamed: "maximumReservedLocales")
  public static var maximumAllocatedLocales: Int { maximumReservedLocales }

  /// The name the first Speech 26 betas used for ``reserve(locale:)``.
  @available(*, deprecated, renamed: "reserve(locale:)")
  @discardableResult
  public static func allocate(locale: Locale) async throws -> Bool { try await reserve(locale: locale) }

  /// The name the first Speech 26 betas used for ``release(reservedLocale:)``.
  @available(*, deprecated, renamed: "release(reservedLocale:)")
  @discardableResult
  public static func deallocate(locale: Locale) async -> Bool { await release(reservedLocale: locale) }
}
