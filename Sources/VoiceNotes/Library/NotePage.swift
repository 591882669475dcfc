import Foundation

/// One page of the notes list, newest first, and where the next page starts.
public struct NotePage: Sendable, Equatable {
  /// A place in the newest-first order: the notes after it are older.
  ///
  /// Opaque to callers; ``description`` is its text form (for a URL) and ``init(_:)`` reads it back.
  public struct Cursor: Sendable, Equatable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// The last note's creation time, seconds since the reference date.
    var createdAt: Double
    /// The last note's row number (the tie-breaker among notes created at the same moment).
    var number: Int64

    init(createdAt: Double, number: Int64) {
      self.createdAt = createdAt
      self.number = number
    }

    /// Reads a cursor from its text form; nil when `description` is not one.
    public init?(_ description: String) {
      let parts = description.split(separator: "_", maxSplits: 1)
      guard parts.count == 2, let time = Double(parts[0]), time.isFinite, let number = Int64(parts[1]) else {
        return nil
      }
      self.init(createdAt: time, number: number)
    }

    /// The cursor as text that contains no characters that need escaping in a URL.
    public var description: String { "\(createdAt)_\(number)" }
  }

  /// The notes, newest first, without their transcripts (lists never show them).
  public var notes: [VoiceNote]
  /// Where the next page starts; nil after the last page.
  public var next: Cursor?
  /// How many notes the library holds.
  public var total: Int
}
