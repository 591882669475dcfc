/// One event of a `text/event-stream` body (server-sent events), as
/// ``HTTPStreamingResponse/events`` yields them.
public struct ServerSentEvent: Sendable, Equatable {
  /// The event's type (its `event:` field), nil for the default type ("message").
  public var event: String?
  /// The event's data: its `data:` lines joined with "\n". An OpenAI-compatible stream ends
  /// with one whose data is `[DONE]`.
  public var data: String
  /// The last event ID the stream set (an `id:` field in this or an earlier event), if any.
  public var id: String?

  /// An event with the given type, data and ID.
  public init(event: String? = nil, data: String, id: String? = nil) {
    self.event = event
    self.data = data
    self.id = id
  }
}
