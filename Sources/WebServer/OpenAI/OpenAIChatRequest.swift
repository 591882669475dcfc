import Foundation

/// The body of `POST /v1/chat/completions`, read and checked: each field OpenAI's API defines
/// that this server supports, and a 400 naming the field for anything it cannot honour.
struct OpenAIChatRequest: Sendable {
  /// One message of the conversation.
  struct Message: Sendable, Equatable {
    /// `system` (or `developer`), `user`, `assistant` or `tool`.
    var role: String
    /// The text; array content is joined from its text parts.
    var content: String
    /// The calls an assistant message made: identifier, tool name and arguments as JSON text.
    var toolCalls: [ToolCall]
    /// For a tool message: the call it answers.
    var toolCallID: String?
    /// For a tool message: the tool's name, when the client gave it.
    var name: String?
  }

  /// A tool call, as a client sends it back in an assistant message.
  struct ToolCall: Sendable, Equatable {
    /// The call's identifier.
    var id: String
    /// The function's name.
    var name: String
    /// The arguments, as the JSON text the model wrote.
    var arguments: String
  }

  /// A function the model may call.
  struct Tool: Sendable, Equatable {
    /// The function's name.
    var name: String
    /// When to call it.
    var description: String
    /// Its parameters' JSON Schema, as text.
    var parameters: String
  }

  /// Whether and which tool the model must call.
  enum ToolChoice: Sendable, Equatable {
    /// As the model sees fit.
    case auto
    /// No tool.
    case none
    /// One of the tools.
    case required
    /// This tool.
    case function(String)
  }

  /// The shape the answer must have.
  enum ResponseFormat: Sendable, Equatable {
    /// Free text.
    case text
    /// Any JSON object.
    case jsonObject
    /// JSON following this JSON Schema (as text).
    case jsonSchema(name: String, schema: String)
  }

  /// The language model's name.
  var model: String
  /// The conversation.
  var messages: [Message]
  /// The most tokens to generate.
  var maximumTokens: Int?
  /// Sampling temperature, 0 to 2 (0 is greedy).
  var temperature: Double?
  /// Nucleus sampling's probability mass, 0 to 1.
  var topP: Double?
  /// The random generator's seed, for repeatable sampling.
  var seed: UInt64?
  /// Whether to answer as server-sent events.
  var stream: Bool
  /// Whether the stream ends with a chunk that carries the token usage.
  var streamIncludesUsage: Bool
  /// The answer's shape.
  var responseFormat: ResponseFormat
  /// The functions offered.
  var tools: [Tool]
  /// Whether a tool must be called.
  var toolChoice: ToolChoice

  /// Reads a request body.
  ///
  /// - Throws: a 400 ``OpenAIError`` that names the field at fault.
  init(json body: Data) throws(OpenAIError) {
    guard let root = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) as? [String: Any]
    else {
      throw .invalid(
        #"the body is not a JSON object; send {"model": "qwen-1.5b", "messages": [{"role": "user", "content": "Hi"}]}"#)
    }
    guard let model = root["model"] as? String, !model.isEmpty else {
      throw .invalid("send 'model': the name of an installed language model (see GET /v1/models)", param: "model")
    }
    self.model = model
    guard let messages = root["messages"] as? [Any], !messages.isEmpty else {
      throw .invalid("send 'messages': a non-empty array of {role, content}", param: "messages")
    }
    self.messages = try messages.enumerated().map { index, value throws(OpenAIError) in
      try Self.message(value, index: index)
    }
    if let count = root["n"].flatMap(Self.nonNull), Self.integer(count) != 1 {
      throw .invalid("this server makes one choice per request; leave n out or send 1", param: "n")
    }
    if let stop = root["stop"].flatMap(Self.nonNull), !((stop as? [Any])?.isEmpty ?? false) {
      throw .invalid("stop sequences are not supported; leave stop out and use max_tokens", param: "stop")
    }
    let limit = root["max_completion_tokens"].flatMap(Self.nonNull) ?? root["max_tokens"].flatMap(Self.nonNull)
    if let limit {
      guard let value = Self.integer(limit), value >= 1 else {
        throw .invalid("max_tokens must be a whole number of at least 1", param: "max_tokens")
      }
      maximumTokens = value
    }
    temperature = try Self.number(root, "temperature", in: 0...2)
    topP = try Self.number(root, "top_p", in: 0...1)
    if let value = root["seed"].flatMap(Self.nonNull) {
      guard let seed = Self.integer(value) else { throw .invalid("seed must be a whole number", param: "seed") }
      self.seed = UInt64(bitPattern: Int64(seed))
    }
    stream = try Self.flag(root, "stream")
    let streamOptions = root["stream_options"].flatMap(Self.nonNull) as? [String: Any] ?? [:]
    streamIncludesUsage = try Self.flag(streamOptions, "include_usage")
    responseFormat = try Self.responseFormat(root["response_format"].flatMap(Self.nonNull))
    tools = try Self.tools(root["tools"].flatMap(Self.nonNull))
    toolChoice = try Self.toolChoice(root["tool_choice"].flatMap(Self.nonNull), tools: tools)
  }

  // MARK: - Fields

  private static func message(_ value: Any, index: Int) throws(OpenAIError) -> Message {
    let param = "messages[\(index)]"
    guard let object = value as? [String: Any], let role = object["role"] as? String else {
      throw .invalid("\(param) must be an object with a role and content", param: param)
    }
    guard ["system", "developer", "user", "assistant", "tool"].contains(role) else {
      throw .invalid(
        "\(param).role '\(role.prefix(20))' is not one of system, developer, user, assistant, tool",
        param: "\(param).role")
    }
    let content = try text(of: object["content"].flatMap(nonNull), param: "\(param).content")
    var calls: [ToolCall] = []
    if role == "assistant", let list = object["tool_calls"].flatMap(nonNull) {
      guard let list = list as? [Any] else { throw .invalid("\(param).tool_calls must be an array", param: param) }
      for (number, item) in list.enumerated() {
        guard let call = item as? [String: Any], let function = call["function"] as? [String: Any],
          let name = function["name"] as? String
        else {
          throw .invalid(
            "\(param).tool_calls[\(number)] must be {id, type: function, function: {name, arguments}}", param: param)
        }
        calls.append(
          ToolCall(
            id: call["id"] as? String ?? "call_\(index)_\(number)", name: name,
            arguments: function["arguments"] as? String ?? "{}"))
      }
    }
    if role != "assistant" || calls.isEmpty, content == nil {
      throw .invalid("\(param) has no content", param: "\(param).content")
    }
    let toolCallID = object["tool_call_id"] as? String
    if role == "tool", toolCallID == nil {
      throw .invalid("\(param) is a tool message without tool_call_id", param: "\(param).tool_call_id")
    }
    return Message(
      role: role == "developer" ? "system" : role, content: content ?? "", toolCalls: calls, toolCallID: toolCallID,
      name: object["name"] as? String)
  }

  /// A message's text: a string, or the text parts of an array joined (other parts refused).
  private static func text(of value: Any?, param: String) throws(OpenAIError) -> String? {
    guard let value else { return nil }
    if let text = value as? String { return text }
    guard let parts = value as? [Any] else {
      throw .invalid("\(param) must be a string or an array of text parts", param: param)
    }
    var texts: [String] = []
    for part in parts {
      guard let part = part as? [String: Any], part["type"] as? String == "text", let text = part["text"] as? String
      else {
        throw .invalid(
          "\(param) may hold only text parts ({type: text, text}); images and audio are not supported", param: param)
      }
      texts.append(text)
    }
    return texts.joined(separator: "\n")
  }

  private static func responseFormat(_ value: Any?) throws(OpenAIError) -> ResponseFormat {
    guard let value else { return .text }
    let param = "response_format"
    guard let object = value as? [String: Any], let type = object["type"] as? String else {
      throw .invalid(#"response_format must be {"type": "text" | "json_object" | "json_schema", …}"#, param: param)
    }
    switch type {
    case "text": return .text
    case "json_object": return .jsonObject
    case "json_schema":
      guard let spec = object["json_schema"] as? [String: Any], let schema = spec["schema"] as? [String: Any] else {
        throw .invalid(
          "response_format json_schema needs json_schema: {name, schema}", param: "response_format.json_schema")
      }
      guard let data = try? JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]) else {
        throw .invalid("response_format's schema is not JSON", param: "response_format.json_schema.schema")
      }
      return .jsonSchema(name: spec["name"] as? String ?? "response", schema: String(decoding: data, as: UTF8.self))
    default:
      throw .invalid(
        "response_format type '\(type.prefix(20))' is not supported; use text, json_object or json_schema", param: param
      )
    }
  }

  private static func tools(_ value: Any?) throws(OpenAIError) -> [Tool] {
    guard let value else { return [] }
    guard let list = value as? [Any] else { throw .invalid("tools must be an array", param: "tools") }
    return try list.enumerated().map { index, item throws(OpenAIError) in
      let param = "tools[\(index)]"
      guard let tool = item as? [String: Any], tool["type"] as? String == "function",
        let function = tool["function"] as? [String: Any], let name = function["name"] as? String, !name.isEmpty
      else {
        throw .invalid("\(param) must be {type: function, function: {name, description, parameters}}", param: param)
      }
      guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
      else {
        throw .invalid(
          "\(param).function.name must be letters, digits, _ or -, at most 64", param: "\(param).function.name")
      }
      let parameters = function["parameters"] as? [String: Any] ?? ["type": "object", "properties": [String: Any]()]
      guard let data = try? JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys]) else {
        throw .invalid("\(param).function.parameters is not JSON", param: "\(param).function.parameters")
      }
      return Tool(
        name: name, description: function["description"] as? String ?? "",
        parameters: String(decoding: data, as: UTF8.self))
    }
  }

  private static func toolChoice(_ value: Any?, tools: [Tool]) throws(OpenAIError) -> ToolChoice {
    let param = "tool_choice"
    guard let value else { return .auto }
    let choice: ToolChoice
    if let text = value as? String {
      switch text {
      case "auto": choice = .auto
      case "none": choice = .none
      case "required": choice = .required
      default: throw .invalid("tool_choice must be auto, none, required or {type: function, …}", param: param)
      }
    } else if let object = value as? [String: Any], let function = object["function"] as? [String: Any],
      let name = function["name"] as? String
    {
      guard tools.contains(where: { $0.name == name }) else {
        throw .invalid("tool_choice names '\(name.prefix(64))', which is not among the tools", param: param)
      }
      choice = .function(name)
    } else {
      throw .invalid("tool_choice must be auto, none, required or {type: function, function: {name}}", param: param)
    }
    if tools.isEmpty, choice == .required {
      throw .invalid("tool_choice is required but no tools were sent", param: param)
    }
    return choice
  }

  // MARK: - Values

  private static func nonNull(_ value: Any) -> Any? { value is NSNull ? nil : value }

  private static func integer(_ value: Any) -> Int? {
    guard let number = value as? NSNumber else { return nil }
    let double = number.doubleValue
    guard double.rounded() == double, abs(double) < 9e15 else { return nil }
    return Int(double)
  }

  private static func number(_ object: [String: Any], _ key: String, in range: ClosedRange<Double>)
    throws(OpenAIError) -> Double?
  {
    guard let value = object[key].flatMap(nonNull) else { return nil }
    guard let number = value as? NSNumber, range.contains(number.doubleValue) else {
      throw .invalid("\(key) must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))", param: key)
    }
    return number.doubleValue
  }

  private static func flag(_ object: [String: Any], _ key: String) throws(OpenAIError) -> Bool {
    guard let value = object[key].flatMap(nonNull) else { return false }
    guard let flag = value as? Bool else { throw .invalid("\(key) must be true or false", param: key) }
    return flag
  }
}
