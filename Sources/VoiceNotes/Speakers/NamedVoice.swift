import Foundation
import SpeechRecognition

/// A voice the library remembers by name: named once in a note, recognised in later notes.
public struct NamedVoice: Identifiable, Codable, Sendable, Equatable {
  /// A stable identifier (a lowercase UUID).
  public var id: String
  /// The person's name, as they typed it; unique in the library, ignoring case.
  public var name: String
  /// The voice, pooled over the notes where the person confirmed it (weighted by seconds).
  public var embedding: SpeakerEmbedding
  /// When the voice was first named.
  public var createdAt: Date
  /// When the name or the voice last changed.
  public var updatedAt: Date
  /// In how many notes a speaker is labelled with this voice (filled in when listed).
  public var noteCount: Int

  /// A voice called `name` with `embedding`.
  public init(
    id: String = UUID().uuidString.lowercased(), name: String, embedding: SpeakerEmbedding,
    createdAt: Date = Date(), updatedAt: Date? = nil, noteCount: Int = 0
  ) {
    self.id = id
    self.name = name
    self.embedding = embedding
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.noteCount = noteCount
  }
}
