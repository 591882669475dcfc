import Foundation
import VoiceNotes

/// The web app's conversations with the note assistant, by identifier, so a follow-up question
/// continues its conversation; the least recently used are forgotten past ``limit``.
actor AskConversations {
  /// The most conversations kept at once.
  static let limit = 16

  private let library: Library
  private var assistants: [String: NoteAssistant] = [:]
  private var order: [String] = []

  /// Conversations about `library`'s notes.
  init(library: Library) { self.library = library }

  /// The conversation `id` (a new one when `id` is nil or forgotten), and its identifier.
  func conversation(_ id: String?) -> (id: String, assistant: NoteAssistant) {
    if let id, let assistant = assistants[id] {
      order.removeAll { $0 == id }
      order.append(id)
      return (id, assistant)
    }
    let made = UUID().uuidString.lowercased()
    let assistant = NoteAssistant(library: library)
    assistants[made] = assistant
    order.append(made)
    while order.count > Self.limit { assistants[order.removeFirst()] = nil }
    return (made, assistant)
  }
}
