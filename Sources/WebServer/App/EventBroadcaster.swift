import Foundation
import VoiceNotes

/// Turns the library's events into server-sent events for every connected page: one
/// subscription to the library, however many pages are open.
actor EventBroadcaster {
  private let library: Library
  private var streams: [ObjectIdentifier: HTTPEventStream] = [:]
  private var forwarding: Task<Void, Never>?

  init(library: Library) {
    self.library = library
  }

  /// Starts forwarding (once).
  func start() {
    guard forwarding == nil else { return }
    let events = library.events.subscribe()
    forwarding = Task { [weak self] in
      for await event in events {
        guard let self else { return }
        await self.forward(event)
      }
    }
  }

  /// A new stream for a page, answered as `text/event-stream`.
  func connect() -> HTTPResponse {
    let stream = HTTPEventStream()
    let id = ObjectIdentifier(stream)
    streams[id] = stream
    stream.enqueue(Data("retry: 2000\n\n".utf8))
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
      body: .events(stream))
  }

  private func forward(_ event: LibraryEvent) async {
    streams = streams.filter { !$0.value.isClosed }
    guard !streams.isEmpty, let (name, data) = await payload(for: event) else { return }
    let text = String(decoding: data, as: UTF8.self)
    for stream in streams.values { stream.send(event: name, data: text) }
  }

  private func payload(for event: LibraryEvent) async -> (String, Data)? {
    switch event {
    case .noteChanged(let note):
      return ("note", APIPayload.encode(APIPayload.NoteSummary(note, progress: library.progress(of: note.id))))
    case .progress(let id, _, let fraction):
      guard let note = try? await library.summary(of: id) else { return nil }
      return ("note", APIPayload.encode(APIPayload.NoteSummary(note, progress: fraction)))
    case .noteDeleted(let id):
      return ("deleted", APIPayload.encode(["id": id]))
    case .externalChange:
      return ("library", Data("{}".utf8))
    case .live(let recordingID, let result):
      let live = APIPayload.Live(
        recordingID: recordingID, final: result.isFinal, start: result.range.start.seconds,
        end: result.range.end.seconds,
        text: String(result.text.characters).trimmingCharacters(in: .whitespacesAndNewlines))
      return ("live", APIPayload.encode(live))
    case .model(let name, let status, let stage, let fraction):
      return (
        "model",
        APIPayload.encode(
          APIPayload.ModelProgress(name: name, status: status.rawValue, stage: stage, fraction: fraction))
      )
    }
  }
}
