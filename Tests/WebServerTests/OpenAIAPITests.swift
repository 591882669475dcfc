import Foundation
import TestSupport
import Testing

@testable import WebServer

/// The OpenAI-compatible routes under `/v1` against a real server on 127.0.0.1: the model list,
/// transcriptions in every format, and OpenAI's one-line error shape for every refusal.
@Suite("OpenAI API", .serialized)
struct OpenAIAPITests {
  /// OpenAI's error shape on one line: `{"error":{"message","type","param","code"}}`.
  @discardableResult
  func expectOpenAIError(
    _ response: HTTPTestClient.Response, _ status: Int, param: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    #expect(response.status == status, "\(response.status) \(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("content-type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    #expect(!response.text.contains("\n"), "one line: \(response.text)", sourceLocation: sourceLocation)
    let error = response.json["error"] as? [String: Any] ?? [:]
    let message = error["message"] as? String ?? ""
    #expect(!message.isEmpty, "\(response.text)", sourceLocation: sourceLocation)
    #expect(error["type"] is String, "\(response.text)", sourceLocation: sourceLocation)
    #expect(
      error.keys.contains("param") && error.keys.contains("code"), "\(response.text)", sourceLocation: sourceLocation)
    if let param { #expect(error["param"] as? String == param, "\(response.text)", sourceLocation: sourceLocation) }
    #expect(!message.contains("/tmp/"), "no paths: \(message)", sourceLocation: sourceLocation)
    return message
  }

  /// A multipart/form-data body with `fields` and, when given, a file part.
  static func form(_ fields: [(String, String)], file: (name: String, data: Data)? = nil) -> (Data, String) {
    let boundary = "----voicenotes-test-\(UUID().uuidString)"
    var body = Data()
    for (name, value) in fields {
      body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }
    if let file {
      body += Data(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\nContent-Type: audio/wav\r\n\r\n"
          .utf8)
      body += file.data + Data("\r\n".utf8)
    }
    body += Data("--\(boundary)--\r\n".utf8)
    return (body, "multipart/form-data; boundary=\(boundary)")
  }

  func transcribe(_ server: TestServer, _ fields: [(String, String)], file: (name: String, data: Data)?) throws
    -> HTTPTestClient.Response
  {
    let (body, type) = Self.form(fields, file: file)
    return try server.client.send(
      "POST", "/v1/audio/transcriptions", headers: ["Content-Type": type], body: body, timeout: 120)
  }

  @Test("GET /v1/models lists the installed language and speech models in OpenAI's shape")
  func models() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let list = try server.client.send("GET", "/v1/models")
    #expect(list.status == 200, "\(list.text)")
    #expect(list.json["object"] as? String == "list")
    let data = try #require(list.json["data"] as? [[String: Any]])
    let ids = data.compactMap { $0["id"] as? String }
    #expect(ids.contains("smollm-135m") && ids.contains("base"), "\(ids)")
    for entry in data {
      #expect(entry["object"] as? String == "model")
      #expect(entry["owned_by"] as? String == "voicenotes")
      #expect((entry["created"] as? Int ?? 0) > 1_600_000_000)
    }
    let one = try server.client.send("GET", "/v1/models/smollm-135m")
    #expect(one.status == 200 && one.json["id"] as? String == "smollm-135m", "\(one.text)")
    let missing = try server.client.send("GET", "/v1/models/gpt-5")
    expectOpenAIError(missing, 404, param: "model")
    #expect((missing.json["error"] as? [String: Any])?["code"] as? String == "model_not_found")
  }

  @Test("bad requests get a 4xx with OpenAI's one-line error, naming the field")
  func errors() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let client = server.client
    let json = ["Content-Type": "application/json"]
    expectOpenAIError(try client.send("POST", "/v1/chat/completions", headers: json, body: Data("{not json".utf8)), 400)
    expectOpenAIError(try client.send("POST", "/v1/chat/completions", json: ["messages": []]), 400, param: "model")
    expectOpenAIError(
      try client.send("POST", "/v1/chat/completions", json: ["model": "smollm-135m", "messages": []]), 400,
      param: "messages")
    let unknown = try client.send(
      "POST", "/v1/chat/completions", json: ["model": "gpt-4o", "messages": [["role": "user", "content": "Hi"]]])
    #expect(expectOpenAIError(unknown, 404, param: "model").contains("smollm-135m"))
    expectOpenAIError(
      try client.send(
        "POST", "/v1/chat/completions",
        json: ["model": "smollm-135m", "messages": [["role": "wizard", "content": "Hi"]]]), 400,
      param: "messages[0].role")
    expectOpenAIError(
      try client.send(
        "POST", "/v1/chat/completions",
        json: ["model": "smollm-135m", "messages": [["role": "user", "content": "Hi"]], "temperature": 7]), 400,
      param: "temperature")
    expectOpenAIError(
      try client.send(
        "POST", "/v1/chat/completions",
        json: [
          "model": "smollm-135m", "messages": [["role": "user", "content": "Hi"]],
          "response_format": ["type": "xml"],
        ]), 400, param: "response_format")
    expectOpenAIError(
      try client.send(
        "POST", "/v1/chat/completions", headers: ["Content-Type": "text/plain"], body: Data("hello".utf8)), 415)
    let wrongMethod = try client.send("GET", "/v1/chat/completions")
    expectOpenAIError(wrongMethod, 405)
    #expect(wrongMethod.header("allow") == "POST")
    expectOpenAIError(try client.send("POST", "/v1/embeddings", json: ["input": "x"]), 404)
    // A body over the limit is refused by the server itself, in the same shape.
    let huge = Data(repeating: 0x20, count: 9 << 20)
    expectOpenAIError(try client.send("POST", "/v1/chat/completions", headers: json, body: huge), 413)

    // Transcriptions: multipart only, a file and a model, known formats.
    expectOpenAIError(
      try client.send("POST", "/v1/audio/transcriptions", headers: json, body: Data("{}".utf8)), 415)
    expectOpenAIError(try transcribe(server, [("model", "whisper-1")], file: nil), 400, param: "file")
    let audio = try Data(contentsOf: Fixtures.jfk)
    expectOpenAIError(try transcribe(server, [], file: ("jfk.wav", audio)), 400, param: "model")
    expectOpenAIError(try transcribe(server, [("model", "whisper-9")], file: ("jfk.wav", audio)), 404, param: "model")
    expectOpenAIError(
      try transcribe(server, [("model", "whisper-1"), ("response_format", "docx")], file: ("jfk.wav", audio)), 400,
      param: "response_format")
    expectOpenAIError(
      try transcribe(
        server, [("model", "whisper-1"), ("timestamp_granularities[]", "word")], file: ("jfk.wav", audio)), 400,
      param: "timestamp_granularities")
    let notAudio = try transcribe(server, [("model", "tiny.en")], file: ("notes.txt", Data("just text".utf8)))
    expectOpenAIError(notAudio, 400, param: "file")
    #expect(server.leftoverUploads.isEmpty, "\(server.leftoverUploads)")
  }

  @Test("/v1 keeps the web app's rules: its own Host, no cross-site posts, the API key when one is set")
  func security() async throws {
    let open = try await TestServer.start()
    defer { Task { await open.stop() } }
    expectOpenAIError(try open.client.send("GET", "/v1/models", hostHeader: "evil.example:80"), 403)
    expectOpenAIError(
      try open.client.send(
        "POST", "/v1/chat/completions", json: ["model": "smollm-135m"], headers: ["Origin": "https://evil.example"]),
      403)

    let keyed = try await TestServer.start(apiKey: "sk-local-test-key")
    defer { Task { await keyed.stop() } }
    let noKey = try keyed.client.send("GET", "/v1/models")
    #expect(expectOpenAIError(noKey, 401).contains("API key"))
    #expect((noKey.json["error"] as? [String: Any])?["code"] as? String == "invalid_api_key")
    expectOpenAIError(try keyed.client.send("GET", "/v1/models", headers: ["Authorization": "Bearer wrong-key"]), 401)
    let allowed = try keyed.client.send("GET", "/v1/models", headers: ["Authorization": "Bearer sk-local-test-key"])
    #expect(allowed.status == 200, "\(allowed.text)")
    // The key is for /v1; the web app on loopback stays as it was.
    #expect(try keyed.client.send("GET", "/api/status").status == 200)

    // Beyond loopback the server's token is required, and works as the API key.
    let remote = try await TestServer.start(token: "token-0123456789", host: "0.0.0.0")
    defer { Task { await remote.stop() } }
    expectOpenAIError(try remote.client.send("GET", "/v1/models"), 401)
    let withToken = try remote.client.send("GET", "/v1/models", headers: ["Authorization": "Bearer token-0123456789"])
    #expect(withToken.status == 200, "\(withToken.text)")
  }

  @Test("POST /v1/audio/transcriptions answers json, text, verbose_json with words, srt and vtt")
  func transcriptions() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let audio = try Data(contentsOf: Fixtures.jfk)
    let file = (name: "jfk.wav", data: audio)

    let json = try transcribe(server, [("model", "tiny.en"), ("language", "en")], file: file)
    #expect(json.status == 200, "\(json.text)")
    let text = json.json["text"] as? String ?? ""
    #expect(text.lowercased().contains("ask not what your country"), "\(text)")

    let plain = try transcribe(server, [("model", "tiny.en"), ("response_format", "text")], file: file)
    #expect(plain.header("content-type")?.hasPrefix("text/plain") == true)
    #expect(plain.text.lowercased().contains("ask not what your country"), "\(plain.text)")

    let verbose = try transcribe(
      server,
      [
        ("model", "whisper-1"), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word"),
        ("timestamp_granularities[]", "segment"),
      ],
      file: file)
    #expect(verbose.status == 200, "\(verbose.text)")
    #expect(verbose.json["language"] as? String == "english")
    #expect(abs((verbose.json["duration"] as? Double ?? 0) - 11) < 0.5)
    let segments = try #require(verbose.json["segments"] as? [[String: Any]])
    #expect(!segments.isEmpty)
    var last = -1.0
    for (index, segment) in segments.enumerated() {
      #expect(segment["id"] as? Int == index)
      let start = segment["start"] as? Double ?? -1
      let end = segment["end"] as? Double ?? -1
      #expect(start >= last && end >= start, "\(segment)")
      last = start
    }
    let words = try #require(verbose.json["words"] as? [[String: Any]])
    #expect(words.count >= 15, "\(words.count) words")
    #expect(words.contains { ($0["word"] as? String)?.lowercased().hasPrefix("country") == true })

    let srt = try transcribe(server, [("model", "tiny.en"), ("response_format", "srt")], file: file)
    #expect(srt.text.hasPrefix("1\n00:00:00,"), "\(srt.text)")
    #expect(srt.text.contains(" --> "))
    let vtt = try transcribe(server, [("model", "tiny.en"), ("response_format", "vtt")], file: file)
    #expect(vtt.header("content-type")?.hasPrefix("text/vtt") == true)
    #expect(vtt.text.hasPrefix("WEBVTT\n\n00:00:00."), "\(vtt.text)")
    #expect(server.leftoverUploads.isEmpty, "\(server.leftoverUploads)")
  }

  // MARK: - Chat (plumbing with the tiny model)

  static var hello: [String: Any] {
    [
      "model": "smollm-135m", "max_tokens": 12, "temperature": 0,
      "messages": [
        ["role": "system", "content": "You are brief."],
        ["role": "user", "content": [["type": "text", "text": "Say hello."]]],
      ],
    ]
  }

  @Test("a chat completion: the answer, usage and finish reason in OpenAI's shape")
  func chat() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let response = try server.client.send("POST", "/v1/chat/completions", json: Self.hello, timeout: 120)
    #expect(response.status == 200, "\(response.text)")
    #expect(response.json["object"] as? String == "chat.completion")
    #expect((response.json["id"] as? String)?.hasPrefix("chatcmpl-") == true)
    #expect(response.json["model"] as? String == "smollm-135m")
    let choice = try #require((response.json["choices"] as? [[String: Any]])?.first)
    let message = try #require(choice["message"] as? [String: Any])
    #expect(message["role"] as? String == "assistant")
    #expect(!(message["content"] as? String ?? "").isEmpty)
    #expect(["stop", "length"].contains(choice["finish_reason"] as? String ?? ""))
    let usage = try #require(response.json["usage"] as? [String: Any])
    let prompt = usage["prompt_tokens"] as? Int ?? 0
    let completion = usage["completion_tokens"] as? Int ?? 0
    #expect(prompt > 5 && (1...12).contains(completion) && usage["total_tokens"] as? Int == prompt + completion)

    var limited = Self.hello
    limited["max_tokens"] = 2
    let short = try server.client.send("POST", "/v1/chat/completions", json: limited, timeout: 120)
    let shortChoice = (short.json["choices"] as? [[String: Any]])?.first
    #expect(shortChoice?["finish_reason"] as? String == "length", "\(short.text)")
  }

  @Test("a streamed chat completion: data chunks with deltas, a finish reason, usage, then [DONE]")
  func streamedChat() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    var request = Self.hello
    request["stream"] = true
    request["stream_options"] = ["include_usage": true]
    let response = try server.client.send("POST", "/v1/chat/completions", json: request, timeout: 120)
    #expect(response.status == 200)
    #expect(response.header("content-type") == "text/event-stream")
    let lines = response.text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }
    #expect(lines.last == "data: [DONE]", "\(response.text)")
    let chunks = lines.dropLast().compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any]
    }
    #expect(chunks.count == lines.count - 1 && chunks.count >= 4, "\(response.text)")
    #expect(Set(chunks.compactMap { $0["id"] as? String }).count == 1)
    let choices = chunks.compactMap { ($0["choices"] as? [[String: Any]])?.first }
    let text = choices.compactMap { ($0["delta"] as? [String: Any])?["content"] as? String }.joined()
    #expect(!text.isEmpty)
    #expect(choices.compactMap { $0["finish_reason"] as? String }.count == 1)
    #expect((chunks.last?["usage"] as? [String: Any])?["completion_tokens"] as? Int ?? 0 > 0)
  }

  @Test("json_schema and json_object answers follow the grammar; concurrent requests queue")
  func structuredAndQueued() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let schema: [String: Any] = [
      "type": "object", "additionalProperties": false, "required": ["color", "count"],
      "properties": [
        "color": ["type": "string", "enum": ["red", "green", "blue"]],
        "count": ["type": "integer", "minimum": 1, "maximum": 9],
      ],
    ]
    var request = Self.hello
    request["max_tokens"] = 40
    request["response_format"] = [
      "type": "json_schema", "json_schema": ["name": "pick", "schema": schema, "strict": true],
    ]
    let client = server.client
    let body = try JSONSerialization.data(withJSONObject: request)
    // Three at once on one model: each waits its turn and succeeds. The blocking clients run on
    // threads of their own, so the server in this process keeps the task pool.
    let answers = await withTaskGroup(of: Result<HTTPTestClient.Response, any Error>.self) { group in
      for _ in 0..<3 {
        group.addTask {
          await withCheckedContinuation { continuation in
            Thread {
              continuation.resume(
                returning: Result {
                  try client.send(
                    "POST", "/v1/chat/completions", headers: ["Content-Type": "application/json"], body: body,
                    timeout: 300)
                })
            }.start()
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    for result in answers {
      let answer = try result.get()
      #expect(answer.status == 200, "\(answer.text)")
      let choice = (answer.json["choices"] as? [[String: Any]])?.first
      let content = (choice?["message"] as? [String: Any])?["content"] as? String ?? ""
      let object = (try? JSONSerialization.jsonObject(with: Data(content.utf8))) as? [String: Any] ?? [:]
      #expect(["red", "green", "blue"].contains(object["color"] as? String ?? ""), "\(content)")
      #expect((1...9).contains(object["count"] as? Int ?? 0), "\(content)")
    }
    // Any JSON object: whole when the model stopped, a cut-off object when the limit came first.
    request["response_format"] = ["type": "json_object"]
    request["max_tokens"] = 120
    let any = try client.send("POST", "/v1/chat/completions", json: request, timeout: 120)
    let choice = (any.json["choices"] as? [[String: Any]])?.first
    let content = (choice?["message"] as? [String: Any])?["content"] as? String ?? ""
    if choice?["finish_reason"] as? String == "stop" {
      #expect((try? JSONSerialization.jsonObject(with: Data(content.utf8))) is [String: Any], "\(content)")
    } else {
      #expect(choice?["finish_reason"] as? String == "length" && content.hasPrefix("{"), "\(any.text)")
    }
  }

  @Test("tools: a named tool_choice comes back as tool_calls with JSON arguments; tool outputs go back in")
  func toolCalls() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let weather: [String: Any] = [
      "type": "function",
      "function": [
        "name": "get_weather", "description": "The weather in a city.",
        "parameters": [
          "type": "object", "required": ["city"], "properties": ["city": ["type": "string"]],
        ] as [String: Any],
      ] as [String: Any],
    ]
    var request = Self.hello
    request["max_tokens"] = 60
    request["tools"] = [weather]
    request["tool_choice"] = ["type": "function", "function": ["name": "get_weather"]]
    let response = try server.client.send("POST", "/v1/chat/completions", json: request, timeout: 120)
    let choice = try #require((response.json["choices"] as? [[String: Any]])?.first, "\(response.text)")
    #expect(choice["finish_reason"] as? String == "tool_calls", "\(response.text)")
    let message = try #require(choice["message"] as? [String: Any])
    #expect(message["content"] is NSNull)
    let call = try #require((message["tool_calls"] as? [[String: Any]])?.first)
    let function = try #require(call["function"] as? [String: Any])
    #expect(function["name"] as? String == "get_weather" && call["type"] as? String == "function")
    let arguments = try #require(function["arguments"] as? String)
    let parsed = try JSONSerialization.jsonObject(with: Data(arguments.utf8)) as? [String: Any]
    #expect(parsed?["city"] is String, "\(arguments)")

    // The client ran the tool: its output goes back, and the model answers (no tool this time).
    var followUp = Self.hello
    followUp["max_tokens"] = 16
    followUp["tools"] = [weather]
    followUp["tool_choice"] = "none"
    followUp["messages"] =
      (Self.hello["messages"] as? [Any] ?? []) + [
        ["role": "assistant", "content": NSNull(), "tool_calls": [call]],
        ["role": "tool", "tool_call_id": call["id"] as? String ?? "", "content": #"{"celsius": 18}"#],
      ]
    let answer = try server.client.send("POST", "/v1/chat/completions", json: followUp, timeout: 120)
    let answerChoice = (answer.json["choices"] as? [[String: Any]])?.first
    #expect(answerChoice?["finish_reason"] as? String != "tool_calls", "\(answer.text)")
    let answerText = (answerChoice?["message"] as? [String: Any])?["content"] as? String
    #expect(answerText?.isEmpty == false, "\(answer.text)")

    // Streamed, the call comes in the last chunk's delta, with its index.
    request["stream"] = true
    let streamed = try server.client.send("POST", "/v1/chat/completions", json: request, timeout: 120)
    let last = streamed.text.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") }.last ?? ""
    let chunk = (try? JSONSerialization.jsonObject(with: Data(last.dropFirst(6).utf8))) as? [String: Any]
    let final = (chunk?["choices"] as? [[String: Any]])?.first
    #expect(final?["finish_reason"] as? String == "tool_calls", "\(streamed.text)")
    let delta = ((final?["delta"] as? [String: Any])?["tool_calls"] as? [[String: Any]])?.first
    #expect(delta?["index"] as? Int == 0 && (delta?["function"] as? [String: Any])?["name"] as? String == "get_weather")
  }

  @Test("a client that leaves mid-stream ends its generation; the model takes the next request")
  func streamClientLeaves() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    var request = Self.hello
    request["stream"] = true
    request["max_tokens"] = 400
    request["messages"] = [["role": "user", "content": "Write a long story about a dragon."]]
    let body = try JSONSerialization.data(withJSONObject: request)
    let socket = try server.client.connect(timeout: 60)
    let head =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: \(server.client.host)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    try server.client.write(socket, Data(head.utf8) + body)
    var received = ""
    var buffer = [UInt8](repeating: 0, count: 4096)
    while received.components(separatedBy: "\"content\"").count < 4 {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      received += String(decoding: buffer[0..<count], as: UTF8.self)
    }
    #expect(received.contains("chat.completion.chunk"), "\(received)")
    close(socket)
    let next = try server.client.send("POST", "/v1/chat/completions", json: Self.hello, timeout: 120)
    #expect(next.status == 200, "\(next.text)")
  }
}
