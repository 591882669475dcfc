import Foundation
import SpeechRecognition

/// Whether a restricted result was really said. In restrict mode Whisper can only write commands,
/// so anything said comes out as the closest one; plain Whisper decodes the same utterance
/// alongside, and the command is kept only when the two sound alike (their espeak-ng phonemes
/// differ in at most 55% of the command's sounds).
enum CommandCheck {
  /// Whether `command` sounds like `heard` (plain Whisper's text for the same audio).
  static func soundsAlike(_ command: String, _ heard: String) async -> Bool {
    let locale = Locale(identifier: "en_US")
    guard let commandSounds = try? await Phonemizer.shared.ipa(for: command, locale: locale),
      let heardSounds = try? await Phonemizer.shared.ipa(for: heard, locale: locale)
    else { return true }
    let expected = PhonemeSequence(ipa: commandSounds)
    let distance = expected.distance(to: PhonemeSequence(ipa: heardSounds))
    return distance <= Double(expected.count) * 0.55
  }
}
