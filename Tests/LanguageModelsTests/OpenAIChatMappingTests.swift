import Foundation
import Testing

@testable import LanguageModels

/// The OpenAI-compatible backend's mapping, on canned JSON: request bodies, streamed deltas into
/// cumulative text and whole tool calls, server errors into the session's errors, and the schema
/// check that runs on arrival.
@Suite("OpenAI chat mapping")
struct OpenAIChatMappingTests {
  static func object(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test("a request body: messages with tool calls and outputs, tools, json_schema, sampling")
  func requestBody() throws {
    let call = LanguageModelToolCall(
      id: "call-1", name: "lookUpLocker", arguments: GeneratedContent(properties: ["locker": 42]))
    let body = OpenAIChatRequestBody(
      messages: [
        .init(role: .system, content: "Be brief."), .init(role: .user, content: "Locker 42?"),
        .init(role: .assistant, content: "", toolCalls: [call]),
        .init(role: .tool, content: "MARIGOLD", toolCallID: "call-1", toolName: "lookUpLocker"),
      ],
      model: "qwen", tools: [LanguageModelToolSpecification(tool: LockerLookup())], toolChoice: .automatic,
      constraint: .jsonSchema(name: "Parcel", schema: Parcel.generationSchema.jsonSchema()),
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 50), isLlamaServer: false)
    let json = try Self.object(try body.json())
    #expect(json["model"] as? String == "qwen")
    #expect(json["stream"] as? Bool == true)
    #expect(json["max_tokens"] as? Int == 50)
    #expect(json["temperature"] as? Double == 0)
    #expect(json["top_k"] == nil, "top_k goes only to llama-server")
    let messages = try #require(json["messages"] as? [[String: Any]])
    #expect(messages.map { $0["role"] as? String } == ["system", "user", "assistant", "tool"])
    let sent = try #require((messages[2]["tool_calls"] as? [[String: Any]])?.first)
    #expect(sent["id"] as? String == "call-1")
    let function = try #require(sent["function"] as? [String: Any])
    #expect(function["name"] as? String == "lookUpLocker")
    #expect(function["arguments"] as? String == #"{"locker":42}"#)
    #expect(messages[3]["tool_call_id"] as? String == "call-1")
    let tool = try #require((json["tools"] as? [[String: Any]])?.first)
    #expect(tool["type"] as? String == "function")
    let parameters = try #require((tool["function"] as? [String: Any])?["parameters"] as? [String: Any])
    #expect(parameters["type"] as? String == "object")
    #expect(json["tool_choice"] as? String == "auto")
    let format = try #require(json["response_format"] as? [String: Any])
    #expect(format["type"] as? String == "json_schema")
    let schema = try #require(format["json_schema"] as? [String: Any])
    #expect(schema["strict"] as? Bool == true)
    #expect(schema["name"] as? String == "Parcel")
    #expect((schema["schema"] as? [String: Any])?["properties"] != nil)
  }

  @Test("to llama-server the GBNF grammar goes in `grammar`, with top_k")
  func grammarBody() throws {
    let grammar = try SchemaGrammar(Parcel.generationSchema).text
    let body = OpenAIChatRequestBody(
      messages: [.init(role: .user, content: "A parcel.")], model: nil, tools: [], toolChoice: .automatic,
      constraint: .grammar(grammar), options: GenerationOptions(), isLlamaServer: true)
    let json = try Self.object(try body.json())
    #expect(json["grammar"] as? String == grammar)
    #expect(json["response_format"] == nil)
    #expect(json["tools"] == nil)
    #expect(json["top_k"] as? Int == 40)
    #expect(json["temperature"] as? Double == 0.7)
  }

  @Test("content deltas become cumulative text; tool_call fragments become whole calls")
  func streamedDeltas() throws {
    var accumulator = OpenAIChatStreamAccumulator()
    var snapshots: [String] = []
    let events = [
      #"{"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}"#,
      #"{"choices":[{"index":0,"delta":{"content":"Hel"}}]}"#,
      #"{"choices":[{"index":0,"delta":{"content":"lo"}}]}"#,
      #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"look","arguments":""}}]}}]}"#,
      #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"locker\":"}}]}}]}"#,
      #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"c2","function":{"name":"other","arguments":"{}"}}]}}]}"#,
      #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"42}"}}]}}]}"#,
      #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
      #"{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":7}}"#,
      "[DONE]",
    ]
    for event in events where try accumulator.add(event) { snapshots.append(accumulator.text) }
    #expect(snapshots == ["Hel", "Hello"])
    #expect(accumulator.isDone)
    #expect(accumulator.finishReason == "tool_calls")
    #expect(accumulator.promptTokens == 12)
    #expect(accumulator.generatedTokens == 7)
    let calls = try accumulator.decodedToolCalls()
    #expect(calls.map(\.id) == ["c1", "c2"])
    #expect(calls.map(\.name) == ["look", "other"])
    #expect(calls[0].arguments == GeneratedContent(properties: ["locker": 42]))
  }

  @Test("a refusal in the stream becomes the session's refusal, with the refused turn to explain")
  func refusal() async throws {
    var accumulator = OpenAIChatStreamAccumulator()
    for event in [
      #"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":"I can't "}}]}"#,
      #"{"choices":[{"index":0,"delta":{"refusal":"help with that."},"finish_reason":"stop"}]}"#, "[DONE]",
    ] {
      _ = try accumulator.add(event)
    }
    #expect(accumulator.refusal == "I can't help with that.")
    #expect(accumulator.text.isEmpty)

    var reply = LanguageModelReply(text: "", promptTokens: 9, generatedTokens: 6, stopReason: .endOfText)
    reply.refusal = accumulator.refusal
    let session = LanguageModelSession(model: SystemLanguageModel(backend: RefusingBackend(reply: reply)))
    do {
      _ = try await session.respond(to: "Tell me my neighbour's bank PIN.")
      Issue.record("a refusal was answered")
    } catch LanguageModelSession.GenerationError.refusal(let refusal, let context) {
      #expect(context.debugDescription == "I can't help with that.")
      #expect(
        refusal.transcriptEntries.map(\.description) == ["Tell me my neighbour's bank PIN.", "I can't help with that."])
    }
    #expect(session.transcript.isEmpty, "a refused turn is not part of the conversation")
  }

  @Test("an error event inside the stream is the server's error")
  func errorEvent() {
    var accumulator = OpenAIChatStreamAccumulator()
    #expect(throws: OpenAIChatFailure.self) {
      try accumulator.add(#"{"error":{"code":500,"message":"slot crashed","type":"server_error"}}"#)
    }
    #expect(throws: OpenAIChatFailure.self) { try accumulator.add("not json") }
  }

  @Test("429 -> rateLimited, context overflow -> exceededContextWindowSize, others -> status and message")
  func errorMapping() {
    let url = "http://127.0.0.1:9"
    func caller(_ status: Int, _ body: String) -> any Error {
      OpenAIChatFailure.fromServer(status: status, body: body).errorForCaller(url: url)
    }
    guard
      case .rateLimited = caller(429, #"{"error":{"message":"slow down"}}"#) as? LanguageModelSession.GenerationError
    else {
      Issue.record("429 is not rateLimited")
      return
    }
    let llama = caller(
      400,
      #"{"error":{"code":400,"message":"request (5000 tokens) exceeds the available context size (2048 tokens)","type":"exceed_context_size_error"}}"#
    )
    guard case .exceededContextWindowSize = llama as? LanguageModelSession.GenerationError else {
      Issue.record("llama-server's overflow: \(llama)")
      return
    }
    let openAI = caller(
      400,
      #"{"error":{"message":"This model's maximum context length is 4096 tokens, however you requested 5000","type":"invalid_request_error"}}"#
    )
    guard case .exceededContextWindowSize = openAI as? LanguageModelSession.GenerationError else {
      Issue.record("OpenAI's overflow: \(openAI)")
      return
    }
    let failure = caller(503, #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#)
    #expect(failure as? LanguageModelServerError == .status(url: url, code: 503, message: "Loading model"))
    #expect(failure.localizedDescription.contains("503") && failure.localizedDescription.contains("Loading model"))
    let plain = caller(502, "Bad Gateway")
    #expect(plain as? LanguageModelServerError == .status(url: url, code: 502, message: "Bad Gateway"))
  }

  @Test("the arrival check names each broken guide")
  func conformance() throws {
    let schema = Parcel.generationSchema
    let good = try GeneratedContent(
      json:
        #"{"code":"ABC-12","colour":"red","version":"v1","priority":3,"weight":1.5,"tags":["cold","heavy","urgent"],"digits":[1,2],"shelves":[],"handler":null}"#
    )
    #expect(schema.violations(of: good) == [])
    let bad = try GeneratedContent(
      json:
        #"{"code":"abc","colour":"pink","version":"v2","priority":9,"weight":1.5,"tags":["cold"],"digits":[1,2,3,4,5],"shelves":[1,2,3],"extra":1}"#
    )
    let problems = schema.violations(of: bad).joined(separator: "\n")
    for expected in [
      "pattern", "not one of", "constant", "above the maximum", "at least 3", "at most 4", "at most 2", "extra",
    ] {
      #expect(problems.contains(expected), "missing \(expected) in:\n\(problems)")
    }
  }

  @Test("an unreachable server is modelNotReady, and the explanation names its URL")
  func unreachable() async throws {
    let url = URL(string: "http://127.0.0.1:9")!
    let model = SystemLanguageModel(server: .init(url: url))
    #expect(model.availability == .unavailable(.modelNotReady))
    let explanation = try #require(model.unavailabilityExplanation)
    #expect(explanation.contains("http://127.0.0.1:9"), "\(explanation)")
    #expect(!explanation.contains("voicenotes"))
    await #expect(throws: LanguageModelSession.GenerationError.self) {
      try await LanguageModelSession(model: model).respond(to: "Hello")
    }
  }

  @Test("the default model is the configured server")
  func configuredServer() {
    let configuration = EngineConfiguration(environment: [
      "VOICENOTES_LANGUAGE_MODEL_SERVER": "http://127.0.0.1:9", "VOICENOTES_LANGUAGE_MODEL_SERVER_MODEL": "qwen",
    ])
    let model = SystemLanguageModel(configuration: configuration)
    #expect(model.backend is OpenAIChatBackend)
    #expect(model.backend.displayName == "http://127.0.0.1:9 (qwen)")
    #expect(model.weights == nil)
    let local = SystemLanguageModel(configuration: EngineConfiguration(environment: [:]))
    #expect(local.backend is LlamaBackend)
  }
}

/// A backend that answers every request with one canned reply.
private final class RefusingBackend: LanguageModelBackend {
  let reply: LanguageModelReply
  init(reply: LanguageModelReply) { self.reply = reply }
  var displayName: String { "refusing" }
  var availability: SystemLanguageModel.Availability { .available }
  var unavailabilityExplanation: String? { nil }
  func contextSize() async throws -> Int { 4096 }
  func tokenCount(for text: String) async throws -> Int { text.count / 4 }
  func prewarm(_ request: LanguageModelRequest) async {}
  func respond(to request: LanguageModelRequest, onText: @escaping @Sendable (String) -> Void) async throws
    -> LanguageModelReply
  { reply }
}
