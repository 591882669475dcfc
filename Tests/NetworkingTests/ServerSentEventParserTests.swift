import Testing

@testable import Networking

@Suite("Server-sent event parsing")
struct ServerSentEventParserTests {
  /// Feeds `text` in pieces of `size` bytes and returns every event.
  func parse(_ text: String, size: Int) -> [ServerSentEvent] {
    var parser = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: size) {
      parser.feed(bytes[start..<min(start + size, bytes.count)])
      while let event = parser.next() { events.append(event) }
    }
    return events
  }

  @Test("data lines join with newlines; comments, unknown fields and empty events are dropped")
  func fields() {
    let stream =
      ": a comment\r\ndata: one\r\ndata:two\r\n\r\nevent: delta\nid: 7\nretry: 10\nbogus\ndata:  three\n\n\n\r\rdata\n\ndata: tail"
    let expected = [
      ServerSentEvent(data: "one\ntwo"),
      ServerSentEvent(event: "delta", data: " three", id: "7"),
      ServerSentEvent(data: "", id: "7"),
    ]
    for size in [1, 2, 3, 7, 1000] {
      #expect(parse(stream, size: size) == expected, "pieces of \(size) bytes")
    }
  }

  @Test("an OpenAI-style stream ends with [DONE]")
  func openAIStream() {
    let stream = "data: {\"choices\":[]}\n\ndata: [DONE]\n\n"
    #expect(parse(stream, size: 5).map(\.data) == ["{\"choices\":[]}", "[DONE]"])
  }
}
