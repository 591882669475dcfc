/// Turns the bytes of a `text/event-stream` body into events, as the HTML standard's event
/// stream interpretation does: lines end with CR LF, LF or CR; a line starting with ":" is a
/// comment; `field: value` lines set fields (one space after the colon is dropped); `data`
/// lines accumulate, joined with "\n"; a blank line ends an event (one with no data is
/// dropped); an unknown field is ignored; an unfinished event at the end of the stream is
/// dropped.
struct ServerSentEventParser: Sendable {
  private var line: [UInt8] = []
  private var lastWasCR = false
  private var data: [String] = []
  private var hasData = false
  private var eventType: String?
  private var lastEventID: String?
  private var ready: [ServerSentEvent] = []
  private var readyIndex = 0

  /// Takes more bytes of the stream.
  mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\n"):
        if lastWasCR {
          lastWasCR = false
        } else {
          endLine()
        }
      case UInt8(ascii: "\r"):
        lastWasCR = true
        endLine()
      default:
        lastWasCR = false
        line.append(byte)
      }
    }
  }

  /// The next complete event, if one is ready.
  mutating func next() -> ServerSentEvent? {
    guard readyIndex < ready.count else { return nil }
    let event = ready[readyIndex]
    readyIndex += 1
    if readyIndex == ready.count {
      ready.removeAll(keepingCapacity: true)
      readyIndex = 0
    }
    return event
  }

  private mutating func endLine() {
    defer { line.removeAll(keepingCapacity: true) }
    if line.isEmpty {
      dispatch()
      return
    }
    if line[0] == UInt8(ascii: ":") { return }
    let field: String
    let value: String
    if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      field = String(decoding: line[..<colon], as: UTF8.self)
      var start = line.index(after: colon)
      if start < line.endIndex, line[start] == UInt8(ascii: " ") { start = line.index(after: start) }
      value = String(decoding: line[start...], as: UTF8.self)
    } else {
      field = String(decoding: line, as: UTF8.self)
      value = ""
    }
    switch field {
    case "data":
      data.append(value)
      hasData = true
    case "event":
      eventType = value
    case "id":
      if !value.utf8.contains(0) { lastEventID = value }
    default:
      break
    }
  }

  private mutating func dispatch() {
    defer {
      data.removeAll()
      hasData = false
      eventType = nil
    }
    guard hasData else { return }
    let type = eventType.flatMap { $0.isEmpty ? nil : $0 }
    ready.append(ServerSentEvent(event: type, data: data.joined(separator: "\n"), id: lastEventID))
  }
}
