import Foundation

/// A speech module that works in one language at a time, as Apple's transcribers do: which
/// locales it supports and has installed, and which it was made for.
public protocol LocaleDependentSpeechModule: SpeechModule {
  /// Every locale the module can work in, installed or not.
  static var supportedLocales: [Locale] { get async }

  /// The locales whose models are installed now.
  static var installedLocales: [Locale] { get async }

  /// The supported locale that stands for `locale` (the same language), or nil when none does.
  static func supportedLocale(equivalentTo locale: Locale) async -> Locale?

  /// The locales this module was made for.
  var selectedLocales: [Locale] { get }
}
