import Foundation
import ModelSupport
import Networking
import Synchronization

/// A backend that asks an OpenAI-compatible server (`/v1/chat/completions`): llama.cpp's
/// `llama-server`, vLLM, Ollama and the like.
///
/// It does what ``LlamaBackend`` does, over HTTP: answers stream as server-sent events into the
/// same cumulative text (so `streamResponse` yields the same snapshots), tools go out as `tools`
/// and come back as `tool_calls` (the session runs them and sends their outputs as `tool`
/// messages), token counts come from the server's `/tokenize`, the context size from its
/// `/props` or `/v1/models`, and availability from a short connection probe (cached for a few
/// seconds).
///
/// Where each guide of a ``GenerationSchema`` is enforced:
///
/// | guide | llama-server (answers and tool arguments) | other servers |
/// |---|---|---|
/// | types, nesting, required properties, enums | our GBNF while sampling | `response_format` json_schema (strict) or the tool's `parameters`, as far as the server honours them; checked on arrival |
/// | `.anyOf`, `.constant` | our GBNF | json_schema `enum` / `const`; checked |
/// | `.pattern` | our GBNF | json_schema `pattern` where supported; checked |
/// | `.count`, `.minimumCount`, `.maximumCount` | our GBNF | json_schema `minItems` / `maxItems`; checked |
/// | `.range`, `.minimum`, `.maximum` | our GBNF (integer ranges spelled out) | json_schema `minimum` / `maximum`; checked |
///
/// To llama-server the conversation goes in the local layout: tools are described in the system
/// message and offered through the same tool-or-answer grammar as ``LlamaBackend`` (llama-server
/// refuses a `grammar` together with `tools`, and a small model does not always write its
/// template's tool-call tags), so there both the answer and the tool arguments are enforced
/// exactly as locally. Other servers get `tools` and `response_format`. Everywhere, the answer
/// and the tool arguments are also checked on arrival (``GenerationSchema`` conformance) and the
/// request sent again, at most ``maximumAttempts`` times in all, before
/// ``LanguageModelSession/GenerationError/decodingFailure(_:)``. A retried answer streams again
/// from its start, so a stream's snapshots can restart once a server's answer was refused.
///
/// ```swift
/// let server = EngineConfiguration.ServerEndpoint(url: URL(string: "http://127.0.0.1:8080")!)
/// let model = SystemLanguageModel(server: server)
/// let session = LanguageModelSession(model: model)
/// ```
public final class OpenAIChatBackend: LanguageModelBackend {
  /// The server, the model asked for and the API key.
  public let endpoint: EngineConfiguration.ServerEndpoint
  /// The context size reported when the server does not say its own.
  public let configuredContextSize: Int
  /// The longest a whole request may take, streaming included.
  public let timeout: Duration
  /// How many times a request is sent when the answer breaks its format or tool schema.
  public let maximumAttempts: Int

  private let client: HTTPClient
  private let reachability: ServerReachability
  private let serverInfo = Mutex<ServerInfo?>(nil)
  /// Whether llama-server is treated as any other server (json_schema, no grammar), for tests.
  private let treatsServerAsGeneric: Bool

  /// What the server said about itself.
  struct ServerInfo: Sendable, Equatable {
    /// Whether it is llama.cpp's server (which takes a GBNF `grammar` and has `/tokenize`).
    var isLlamaServer: Bool
    /// Its context size per request, when it reports one.
    var contextSize: Int?
  }

  /// A backend for `server`. `contextSize` is used when the server does not report its own (by
  /// default the configured size, else 4096); `timeout` bounds each request, streaming included.
  public convenience init(
    server: EngineConfiguration.ServerEndpoint, contextSize: Int? = nil, timeout: Duration = .seconds(600),
    maximumAttempts: Int = 3, configuration: EngineConfiguration = .current, client: HTTPClient = .shared
  ) {
    self.init(
      server: server, contextSize: contextSize, timeout: timeout, maximumAttempts: maximumAttempts,
      configuration: configuration, client: client, treatsServerAsGeneric: false)
  }

  /// A backend that, when `treatsServerAsGeneric`, speaks to llama-server as to any other
  /// OpenAI-compatible server (for testing the generic path against a real server).
  init(
    server: EngineConfiguration.ServerEndpoint, contextSize: Int? = nil, timeout: Duration = .seconds(600),
    maximumAttempts: Int = 3, configuration: EngineConfiguration = .current, client: HTTPClient = .shared,
    treatsServerAsGeneric: Bool
  ) {
    self.treatsServerAsGeneric = treatsServerAsGeneric
    self.endpoint = server
    self.configuredContextSize = max(contextSize ?? configuration.contextSize ?? 4096, 256)
    self.timeout = timeout
    self.maximumAttempts = max(maximumAttempts, 1)
    self.client = client
    self.reachability = ServerReachability(url: server.url)
  }

  /// The server's URL and the model asked for: `http://127.0.0.1:8080 (qwen)`.
  public var displayName: String {
    endpoint.model.map { "\(baseText) (\($0))" } ?? baseText
  }

  /// `.unavailable(.modelNotReady)` while the server does not accept connections.
  public var availability: SystemLanguageModel.Availability {
    reachability.failure == nil ? .available : .unavailable(.modelNotReady)
  }

  /// Why the server cannot be used now, naming its URL; nil when it is reachable.
  public var unavailabilityExplanation: String? {
    reachability.failure.map { "the language model server at \(baseText) is not reachable (\($0))" }
  }

  /// The server's context size per request (llama-server's `/props` `n_ctx`, or `/v1/models`
  /// `meta.n_ctx`), else ``configuredContextSize``.
  public func contextSize() async throws -> Int {
    try await info().contextSize ?? configuredContextSize
  }

  /// The number of tokens `text` takes, from the server's `POST /tokenize` (llama-server's
  /// endpoint: special tokens parsed, none added, as the local count does).
  ///
  /// - Throws: ``LanguageModelServerError/tokenizationUnsupported(url:)`` when the server has no
  ///   such endpoint: counts are never estimated.
  public func tokenCount(for text: String) async throws -> Int {
    let body = try JSONSerialization.data(withJSONObject: ["content": text])
    let response = try await send(
      HTTPClientRequest(
        method: "POST", url: url("tokenize"), headers: headers, body: .json(body), timeout: .seconds(60)))
    if [404, 405, 501].contains(response.status) {
      throw LanguageModelServerError.tokenizationUnsupported(url: baseText)
    }
    guard response.status == 200 else {
      throw OpenAIChatFailure.fromServer(status: response.status, body: response.text).errorForCaller(url: baseText)
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
      let tokens = object["tokens"] as? [Any]
    else {
      throw LanguageModelServerError.invalidResponse(
        url: baseText, detail: "/tokenize did not answer {\"tokens\": [...]}")
    }
    return tokens.count
  }

  /// Asks the server what it is (llama-server or not, its context size), so the first request
  /// does not wait for that.
  public func prewarm(_ request: LanguageModelRequest) async {
    _ = try? await info()
  }

  /// Sends `request` as a streamed chat completion, calling `onText` with the cumulative text,
  /// and returns the answer or the tool calls, validated against the format and tool schemas.
  public func respond(to request: LanguageModelRequest, onText: @escaping @Sendable (String) -> Void) async throws
    -> LanguageModelReply
  {
    let info = try await info()
    var problems: [String] = []
    for _ in 0..<maximumAttempts {
      do {
        return try await attempt(request, info: info, onText: onText)
      } catch OpenAIChatFailure.unusable(let detail) {
        problems.append(detail)
      }
    }
    throw LanguageModelSession.GenerationError.decodingFailure(
      .init(
        debugDescription:
          "\(baseText) gave no answer that fits after \(maximumAttempts) attempts: \(problems.joined(separator: "; "))")
    )
  }

  // MARK: - One exchange

  private func attempt(
    _ request: LanguageModelRequest, info: ServerInfo, onText: @escaping @Sendable (String) -> Void
  ) async throws -> LanguageModelReply {
    let offerTools = request.offersTools
    // To llama-server, the conversation in the local layout: tools described in the system
    // message and offered through our tool-or-answer grammar, so both are enforced as locally.
    let toolbox = info.isLlamaServer ? try ToolGrammar(tools: request.tools) : nil
    let body: OpenAIChatRequestBody
    if info.isLlamaServer {
      var messages = LlamaBackend.llamaMessages(request.messages)
      if let toolbox { messages = toolbox.addingDescriptions(to: messages) }
      let answer = try answerGrammar(for: request.responseFormat)
      let grammar =
        offerTools ? toolbox?.grammar(answer: answer, required: request.toolChoice == .required) : answer
      body = OpenAIChatRequestBody(
        messages: messages.map { LanguageModelMessage(role: .init(rawValue: $0.role) ?? .user, content: $0.content) },
        model: endpoint.model, tools: [], toolChoice: .automatic, constraint: grammar.map { .grammar($0) } ?? .none,
        options: request.options, isLlamaServer: true)
    } else {
      body = OpenAIChatRequestBody(
        messages: request.messages, model: endpoint.model, tools: request.tools, toolChoice: request.toolChoice,
        constraint: try constraint(for: request.responseFormat), options: request.options, isLlamaServer: false)
    }
    // A tool call written as text (llama-server) is not part of the answer; answers never start with "<".
    let hidesToolCalls = toolbox != nil && offerTools
    let json = try body.json()
    let response = try await stream(
      HTTPClientRequest(
        method: "POST", url: url("v1/chat/completions"),
        headers: headers.merging(["Accept": "text/event-stream"]) { $1 },
        body: .json(json), timeout: timeout))
    guard response.status == 200 else {
      var text: [UInt8] = []
      do {
        for try await chunk in response.body { text += chunk }
      } catch {
        throw mapped(error)
      }
      throw OpenAIChatFailure.fromServer(status: response.status, body: String(decoding: text, as: UTF8.self))
        .errorForCaller(url: baseText)
    }
    var accumulator = OpenAIChatStreamAccumulator()
    do {
      for try await event in response.events {
        if try accumulator.add(event.data), !(hidesToolCalls && accumulator.text.hasPrefix("<")) {
          onText(accumulator.text)
        }
        if accumulator.isDone { break }
      }
    } catch let failure as OpenAIChatFailure {
      throw failure.errorForCaller(url: baseText)
    } catch {
      throw mapped(error)
    }
    try Task.checkCancellation()
    guard accumulator.isDone || accumulator.finishReason != nil else {
      throw LanguageModelServerError.connectionLost(url: baseText, reason: "the stream ended before the answer did")
    }
    reachability.record(failure: nil)
    if !accumulator.refusal.isEmpty {
      var reply = LanguageModelReply(
        text: "", promptTokens: accumulator.promptTokens ?? 0, generatedTokens: accumulator.generatedTokens ?? 0,
        stopReason: .endOfText)
      reply.refusal = accumulator.refusal
      return reply
    }
    var calls = try accumulator.decodedToolCalls()
    if hidesToolCalls, let toolbox, accumulator.text.hasPrefix("<") {
      guard let call = toolbox.parseCall(accumulator.text) else {
        throw OpenAIChatFailure.unusable("tool call: not a call: \(accumulator.text.prefix(200))")
      }
      calls = [call]
    }
    let generated = accumulator.generatedTokens ?? 0
    let prompt = accumulator.promptTokens ?? 0
    var stopReason = LanguageModelReply.StopReason.endOfText
    if accumulator.finishReason == "length" {
      let limit = request.options.maximumResponseTokens
      stopReason =
        limit != nil && (accumulator.generatedTokens == nil || generated >= limit ?? 0) ? .tokenLimit : .contextFull
    }
    if !calls.isEmpty {
      guard offerTools else {
        throw OpenAIChatFailure.unusable("tool call: the model called a tool it was not offered")
      }
      for call in calls { try check(call, against: request.tools) }
      return LanguageModelReply(
        text: "", toolCalls: calls, promptTokens: prompt, generatedTokens: generated, stopReason: stopReason)
    }
    if stopReason == .endOfText { try check(accumulator.text, against: request.responseFormat) }
    return LanguageModelReply(
      text: accumulator.text, promptTokens: prompt, generatedTokens: generated, stopReason: stopReason)
  }

  /// Our GBNF grammar for the answer's format, for llama-server (nil for free text).
  private func answerGrammar(
    for format: LanguageModelResponseFormat
  ) throws(LanguageModelSession.GenerationError) -> String? {
    switch format {
    case .text: nil
    case .schema(let schema): try SchemaGrammar(schema).text
    case .jsonSchema(let text): try SchemaGrammar(jsonSchema: text).text
    }
  }

  /// The answer's format as `response_format` json_schema, for servers other than llama-server.
  private func constraint(
    for format: LanguageModelResponseFormat
  ) throws(LanguageModelSession.GenerationError) -> OpenAIChatRequestBody.Constraint {
    switch format {
    case .text:
      return .none
    case .schema(let schema):
      if let problem = schema.unsupportedGuideDescription() {
        throw .unsupportedGuide(.init(debugDescription: problem))
      }
      return .jsonSchema(name: Self.schemaName(schema.name), schema: schema.jsonSchema())
    case .jsonSchema(let text):
      return .jsonSchema(name: "response", schema: text)
    }
  }

  /// Throws `unusable` when `text` does not fit `format`.
  private func check(_ text: String, against format: LanguageModelResponseFormat) throws(OpenAIChatFailure) {
    let schema: GenerationSchema?
    switch format {
    case .text: return
    case .schema(let value): schema = value
    case .jsonSchema: schema = nil
    }
    let content: GeneratedContent
    do {
      content = try GeneratedContent(json: text)
    } catch {
      throw .unusable("the answer is not valid JSON: \(text.prefix(200))")
    }
    if let problems = schema?.violations(of: content), !problems.isEmpty {
      throw .unusable("the answer breaks the schema: \(problems.joined(separator: ", "))")
    }
  }

  /// Throws `unusable` when `call` names no offered tool or its arguments break the tool's schema.
  private func check(_ call: LanguageModelToolCall, against tools: [LanguageModelToolSpecification])
    throws(OpenAIChatFailure)
  {
    guard let tool = tools.first(where: { $0.name == call.name }) else {
      throw .unusable("tool call: there is no tool named \(call.name)")
    }
    if case .schema(let schema) = tool.parameters {
      let problems = schema.violations(of: call.arguments)
      if !problems.isEmpty {
        throw .unusable(
          "tool call: the arguments of \(call.name) break its schema: \(problems.joined(separator: ", "))")
      }
    }
  }

  // MARK: - The server

  /// What the server is, asked once: llama-server answers `GET /props` with its generation
  /// settings; other servers are asked `GET /v1/models` (llama-server's says `owned_by: llamacpp`).
  func info() async throws -> ServerInfo {
    if let known = serverInfo.withLock({ $0 }) { return known }
    var found = ServerInfo(isLlamaServer: false, contextSize: nil)
    let props = try await send(HTTPClientRequest(url: url("props"), headers: headers, timeout: .seconds(10)))
    if props.status == 200, let object = try? JSONSerialization.jsonObject(with: Data(props.body)) as? [String: Any],
      let settings = object["default_generation_settings"] as? [String: Any]
    {
      found = ServerInfo(isLlamaServer: true, contextSize: (settings["n_ctx"] as? NSNumber)?.intValue)
    } else {
      let models = try await send(HTTPClientRequest(url: url("v1/models"), headers: headers, timeout: .seconds(10)))
      if models.status == 200,
        let object = try? JSONSerialization.jsonObject(with: Data(models.body)) as? [String: Any],
        let list = object["data"] as? [[String: Any]]
      {
        let entry = list.first { $0["id"] as? String == endpoint.model } ?? list.first
        let meta = entry?["meta"] as? [String: Any]
        found = ServerInfo(
          isLlamaServer: entry?["owned_by"] as? String == "llamacpp",
          contextSize: (meta?["n_ctx"] as? NSNumber)?.intValue ?? (meta?["n_ctx_train"] as? NSNumber)?.intValue)
      }
    }
    if found.contextSize == 0 { found.contextSize = nil }
    if treatsServerAsGeneric { found.isLlamaServer = false }
    serverInfo.withLock { $0 = found }
    return found
  }

  private var baseText: String {
    var text = endpoint.url.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    return text
  }

  private func url(_ path: String) -> URL {
    var base = baseText
    if base.hasSuffix("/v1"), path.hasPrefix("v1/") { base.removeLast(3) }
    return URL(string: base + "/" + path) ?? endpoint.url.appendingPathComponent(path)
  }

  private var headers: [String: String] {
    endpoint.apiKey.map { ["Authorization": "Bearer \($0)"] } ?? [:]
  }

  private func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
    do {
      return try await client.send(request)
    } catch {
      throw mapped(error)
    }
  }

  private func stream(_ request: HTTPClientRequest) async throws -> HTTPStreamingResponse {
    do {
      return try await client.stream(request)
    } catch {
      throw mapped(error)
    }
  }

  /// The caller's error for a transport failure: cancellation stays cancellation.
  private func mapped(_ error: any Error) -> any Error {
    guard let error = error as? HTTPClientError else { return error }
    switch error {
    case .cancelled:
      return CancellationError()
    case .cannotConnect(_, let reason):
      reachability.record(failure: reason)
      return LanguageModelServerError.unreachable(url: baseText, reason: reason)
    case .timedOut(_, let seconds):
      return LanguageModelServerError.timedOut(url: baseText, seconds: seconds)
    case .transport(_, let reason):
      return LanguageModelServerError.connectionLost(url: baseText, reason: reason)
    case .invalidURL(let text):
      return LanguageModelServerError.unreachable(url: text, reason: "not an http or https URL")
    }
  }

  /// A `json_schema` name: letters, digits, `_` and `-` only, as OpenAI requires.
  static func schemaName(_ name: String) -> String {
    let cleaned = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" }.prefix(64))
    return cleaned.isEmpty ? "response" : cleaned
  }
}
