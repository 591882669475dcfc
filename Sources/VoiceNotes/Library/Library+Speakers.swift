import Foundation
import SpeechRecognition
import Synchronization

extension Library {
  /// The one place the speaker diarizer is made: what the pipeline asks for when a note reaches
  /// the speakers stage. Nil when the library turns speakers off or the speakers model is not
  /// installed, so the stage is skipped and the note goes on to its analysis.
  ///
  /// The diarizer is loaded when first needed (a model installed while a server runs is used
  /// from the next note on) and kept for the notes after; a model that is installed but cannot
  /// be loaded fails the note's stage with the engine's message.
  static func speakerDiarizer(_ configuration: LibraryConfiguration) -> @Sendable () throws -> (any SpeakerDiarizing)? {
    guard configuration.identifiesSpeakers else { return { nil } }
    let loaded = Mutex<SpeakerDiarizer?>(nil)
    return {
      try loaded.withLock { diarizer in
        if let diarizer { return diarizer }
        guard SpeakerModel.default.isInstalled() else { return nil }
        let made = try SpeakerDiarizer()
        diarizer = made
        return made
      }
    }
  }

  /// Why notes' speakers are not told apart and what to do; nil when they are.
  public static func speakersExplanation(_ configuration: LibraryConfiguration) -> String? {
    guard configuration.identifiesSpeakers else {
      return "speakers are not told apart: the library's config.json turns them off (\"identifySpeakers\": false)"
    }
    guard SpeakerModel.default.isInstalled() else {
      return "speakers are not told apart: the speakers model is not installed; run "
        + "`voicenotes models install \(SpeakerModel.default.name)`"
    }
    return nil
  }

  // MARK: - Named voices

  /// Every named voice, by name, with how many notes it labels a speaker in.
  public nonisolated func voices() async throws -> [NamedVoice] { try await store.voices() }

  /// Names speaker `number` (1 for "Speaker 1") of the note: "Speaker 2 is Priya". The library
  /// remembers the voice under that name (or adds this recording to the voice it already has of
  /// that name), so later notes of the same voice are labelled with it. Another speaker of the
  /// note labelled with the name loses it. Run `analyze` afterwards for action items that name
  /// the speaker.
  public func nameSpeaker(_ idOrPrefix: String, speaker number: Int, as name: String) async throws -> VoiceNote {
    let name = try Self.checkedSpeakerName(name)
    let note = try await store.resolve(idOrPrefix)
    let index = try Self.speakerIndex(number, in: note)
    guard let named = try await store.nameSpeaker(noteID: note.id, index: index, name: name) else {
      throw LibraryError.speakerNotFound(noteID: note.id, number: number, count: note.speakers.count)
    }
    events.publish(.noteChanged(named))
    return named
  }

  /// Says speaker `number` of the note is nobody the library knows (a wrong automatic label): it
  /// reads "Speaker N" again, and the voice it was labelled with no longer learns from it.
  public func unnameSpeaker(_ idOrPrefix: String, speaker number: Int) async throws -> VoiceNote {
    let note = try await store.resolve(idOrPrefix)
    let index = try Self.speakerIndex(number, in: note)
    guard let changed = try await store.unnameSpeaker(noteID: note.id, index: index) else {
      throw LibraryError.speakerNotFound(noteID: note.id, number: number, count: note.speakers.count)
    }
    events.publish(.noteChanged(changed))
    return changed
  }

  /// Gives the named voice `name` the name `newName` in every note.
  ///
  /// - Throws: ``LibraryError/voiceNotFound(name:)``, or ``LibraryError/voiceExists(name:)``
  ///   when another voice has the new name (merge them instead).
  public func renameVoice(_ name: String, to newName: String) async throws -> NamedVoice {
    let newName = try Self.checkedSpeakerName(newName)
    let voice = try await existingVoice(name)
    if let other = try await store.voice(named: newName), other.id != voice.id {
      throw LibraryError.voiceExists(name: other.name)
    }
    try await store.renameVoice(voice.id, to: newName)
    events.publish(.externalChange)
    return try await existingVoice(newName)
  }

  /// Makes the named voice `source` part of `target` (two names for one person): every speaker
  /// labelled `source` is labelled `target`, and `target`'s voice is pooled from both. In a note
  /// that has both, the `source` speaker is left unnamed.
  public func mergeVoice(_ source: String, into target: String) async throws -> NamedVoice {
    let from = try await existingVoice(source)
    let into = try await existingVoice(target)
    guard from.id != into.id else { return into }
    try await store.mergeVoice(from.id, into: into.id)
    events.publish(.externalChange)
    return try await existingVoice(into.name)
  }

  /// Forgets the named voice `name`: its speakers read "Speaker N" again in every note, and new
  /// notes are no longer labelled with it. Returns the voice and how many notes it labelled.
  public func forgetVoice(_ name: String) async throws -> (voice: NamedVoice, notes: Int) {
    let voice = try await existingVoice(name)
    let notes = try await store.forgetVoice(voice.id)
    events.publish(.externalChange)
    return (voice, notes)
  }

  private func existingVoice(_ name: String) async throws -> NamedVoice {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let voice = try await store.voice(named: trimmed) else { throw LibraryError.voiceNotFound(name: trimmed) }
    return voice
  }

  /// The index of speaker `number` (from 1) in `note`.
  private static func speakerIndex(_ number: Int, in note: VoiceNote) throws -> Int {
    guard note.speakers.contains(where: { $0.number == number }) else {
      throw LibraryError.speakerNotFound(noteID: note.id, number: number, count: note.speakers.count)
    }
    return number - 1
  }

  /// A speaker's name as stored: one line, spaces collapsed, 1 to 80 characters, and not a
  /// "Speaker 3" label that would read as an unnamed speaker.
  static func checkedSpeakerName(_ name: String) throws -> String {
    let name = name.withControlCharactersAsSpaces.split(separator: " ").joined(separator: " ")
    guard !name.isEmpty else { throw LibraryError.invalidSpeakerName("the name is empty") }
    guard name.count <= 80 else { throw LibraryError.invalidSpeakerName("the name has \(name.count) characters") }
    let words = name.lowercased().split(separator: " ")
    if words.count == 2, words[0] == "speaker", Int(words[1]) != nil {
      throw LibraryError.invalidSpeakerName("'\(name)' is how an unnamed speaker reads")
    }
    return name
  }
}
