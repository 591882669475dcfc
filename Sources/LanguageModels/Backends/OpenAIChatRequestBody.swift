import Foundation

/// The JSON body of one `/v1/chat/completions` request, built from a ``LanguageModelRequest``.
struct OpenAIChatRequestBody {
  /// How the answer's format is constrained.
  enum Constraint {
    /// No constraint: free text.
    case none
    /// `response_format: {type: json_schema, json_schema: {name, strict: true, schema}}`.
    case jsonSchema(name: String, schema: String)
    /// llama.cpp's `grammar` field: a GBNF grammar the server samples under.
    case grammar(String)
  }

  var messages: [LanguageModelMessage]
  var model: String?
  var tools: [LanguageModelToolSpecification]
  var toolChoice: LanguageModelRequest.ToolChoice
  var constraint: Constraint
  var options: GenerationOptions
  /// Whether llama-server's own sampling fields (`top_k`) may be sent.
  var isLlamaServer: Bool
  var stream = true

  /// The body as JSON.
  func json() throws(OpenAIChatFailure) -> Data {
    var body: [String: Any] = ["messages": messages.map(Self.message), "stream": stream]
    if stream { body["stream_options"] = ["include_usage": true] }
    if let model { body["model"] = model }
    if !tools.isEmpty {
      body["tools"] = try tools.map { (tool) throws(OpenAIChatFailure) -> [String: Any] in
        [
          "type": "function",
          "function": [
            "name": tool.name, "description": tool.description,
            "parameters": try Self.object(tool.parametersJSONSchema, what: "the parameters of \(tool.name)"),
          ] as [String: Any],
        ]
      }
      let choice: String =
        switch toolChoice {
        case .automatic: "auto"
        case .none: "none"
        case .required: "required"
        }
      body["tool_choice"] = choice
    }
    switch constraint {
    case .none: break
    case .jsonSchema(let name, let schema):
      body["response_format"] = [
        "type": "json_schema",
        "json_schema": ["name": name, "strict": true, "schema": try Self.object(schema, what: "the schema")]
          as [String: Any],
      ]
    case .grammar(let grammar): body["grammar"] = grammar
    }
    addSampling(to: &body)
    do {
      return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    } catch {
      throw .invalid("the request could not be written as JSON: \(error)")
    }
  }

  /// The sampling options, as the local backend reads them (temperature 0.7, top-k 40 and top-p
  /// 0.9 unless the options say otherwise); `top_k` only to llama-server.
  private func addSampling(to body: inout [String: Any]) {
    let temperature = options.temperature ?? 0.7
    if let maximum = options.maximumResponseTokens { body["max_tokens"] = maximum }
    switch options.sampling?.mode {
    case .greedy:
      body["temperature"] = 0.0
      if isLlamaServer { body["top_k"] = 1 }
    case .topK(let top, let seed):
      body["temperature"] = temperature
      if isLlamaServer { body["top_k"] = top }
      if let seed { body["seed"] = Int(truncatingIfNeeded: seed & 0x7fff_ffff) }
    case .topP(let threshold, let seed):
      body["temperature"] = temperature
      body["top_p"] = threshold
      if let seed { body["seed"] = Int(truncatingIfNeeded: seed & 0x7fff_ffff) }
    case nil:
      body["temperature"] = temperature
      if temperature > 0 {
        body["top_p"] = 0.9
        if isLlamaServer { body["top_k"] = 40 }
      }
    }
  }

  private static func message(_ message: LanguageModelMessage) -> [String: Any] {
    var object: [String: Any] = ["role": message.role.rawValue, "content": message.content]
    if !message.toolCalls.isEmpty {
      object["tool_calls"] = message.toolCalls.map { call -> [String: Any] in
        [
          "id": call.id, "type": "function",
          "function": ["name": call.name, "arguments": call.arguments.jsonString],
        ]
      }
    }
    if let id = message.toolCallID { object["tool_call_id"] = id }
    if message.role == .tool, let name = message.toolName { object["name"] = name }
    return object
  }

  private static func object(_ json: String, what: String) throws(OpenAIChatFailure) -> Any {
    do {
      return try JSONSerialization.jsonObject(with: Data(json.utf8))
    } catch {
      throw .invalid("\(what) is not valid JSON Schema text: \(error)")
    }
  }
}
