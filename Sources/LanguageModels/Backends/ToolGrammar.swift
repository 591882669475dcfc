import Foundation

/// The tools of a request as the local model sees them: described in the system message, callable
/// through a grammar that admits either a `<tool_call>` with valid arguments or the answer.
struct ToolGrammar: Sendable {
  let tools: [LanguageModelToolSpecification]
  private let callGrammar: String
  let descriptions: String

  /// Prepares `tools`; nil when there are none.
  init?(tools: [LanguageModelToolSpecification]) throws(LanguageModelSession.GenerationError) {
    guard !tools.isEmpty else { return nil }
    self.tools = tools
    var choices: [String] = []
    var definitions: [String: GeneratedContent] = [:]
    var definitionOrder: [String] = []
    var signatures: [String] = []
    for tool in tools {
      let parameters = tool.parametersJSONSchema
      // A call is {"name": ..., "arguments": ...}; nested definitions move to the top level,
      // where the arguments' "#/$defs/..." references point.
      var arguments = parameters
      if let parsed = try? GeneratedContent(json: parameters), case .structure(var properties, var keys) = parsed.kind,
        let nested = properties.removeValue(forKey: "$defs"), case .structure(let found, let names) = nested.kind
      {
        keys.removeAll { $0 == "$defs" }
        for name in names where definitions[name] == nil {
          definitions[name] = found[name]
          definitionOrder.append(name)
        }
        arguments = GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys)).jsonString
      }
      choices.append(
        #"{"type":"object","properties":{"name":{"const":"# + Self.quoted(tool.name) + #"},"arguments":"# + arguments
          + #"},"required":["name","arguments"],"additionalProperties":false}"#)
      let shownParameters = tool.includesSchemaInInstructions ? parameters : #"{"type":"object"}"#
      signatures.append(
        #"{"type": "function", "function": {"name": "# + Self.quoted(tool.name) + #", "description": "#
          + Self.quoted(tool.description) + #", "parameters": "# + shownParameters + "}}")
    }
    var schema = #"{"anyOf":["# + choices.joined(separator: ",") + "]"
    if !definitions.isEmpty {
      schema +=
        #","$defs":"#
        + GeneratedContent(kind: .structure(properties: definitions, orderedKeys: definitionOrder)).jsonString
    }
    schema += "}"
    callGrammar = GrammarComposer.prefixing(try SchemaGrammar(jsonSchema: schema).text, with: "call-")
    // The layout (a <tools> list of function signatures, calls inside <tool_call> tags) is the
    // one instruction-tuned models such as Qwen2.5 learned for tool use.
    descriptions = """
      # Tools

      When a function below can supply facts you need, call it before you answer. The function \
      signatures are listed between <tools></tools> tags:
      <tools>
      \(signatures.joined(separator: "\n"))
      </tools>

      To call a function, reply with nothing but a JSON object holding its name and arguments \
      between <tool_call></tool_call> tags:
      <tool_call>
      {"name": <function name>, "arguments": <arguments object>}
      </tool_call>
      The result comes back between <tool_response></tool_response> tags; then answer the user.
      """
  }

  /// The conversation with the tool descriptions added to its system message.
  func addingDescriptions(to messages: [LlamaMessage]) -> [LlamaMessage] {
    var messages = messages
    if let first = messages.first, first.role == "system" {
      messages[0].content = first.content + "\n\n" + descriptions
    } else {
      messages.insert(LlamaMessage(role: "system", content: descriptions), at: 0)
    }
    return messages
  }

  /// A grammar that admits a tool call or the answer (`answer`: a grammar, or nil for free text);
  /// only a tool call when `required`.
  func grammar(answer: String?, required: Bool = false) -> String {
    let call = "\"<tool_call>\\n\" call-root \"\\n</tool_call>\""
    if required { return "root ::= \(call)\n" + callGrammar }
    let answerRules =
      answer.map { GrammarComposer.prefixing($0, with: "answer-") }
      ?? "answer-root ::= [^<] answer-text\nanswer-text ::= [^\\x00]*\n"
    return "root ::= \(call) | answer-root\n" + callGrammar + answerRules
  }

  /// The call in `text`, when the model chose to call a tool: a `<tool_call>` block, or an answer
  /// that is nothing but a call object (`{"name": …, "arguments": {…}}`, bare or in a ```json
  /// fence) naming one of the tools, as small models often write a call instead of the tags.
  func parseCall(_ text: String) -> LanguageModelToolCall? {
    let body: String
    if text.hasPrefix("<tool_call>") {
      body = text.dropFirst("<tool_call>".count).replacingOccurrences(of: "</tool_call>", with: "")
    } else {
      var bare = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if bare.hasPrefix("```") && bare.hasSuffix("```") && bare.count > 6 {
        bare = String(bare.dropFirst(3).dropLast(3))
        if bare.hasPrefix("json") { bare = String(bare.dropFirst(4)) }
      }
      guard bare.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") else { return nil }
      body = bare
    }
    guard let content = try? GeneratedContent(json: body.trimmingCharacters(in: .whitespacesAndNewlines)),
      let name = try? content.value(String.self, forProperty: "name"),
      case .structure(let properties, let keys) = content.kind, let arguments = properties["arguments"]
    else { return nil }
    if !text.hasPrefix("<tool_call>") {
      // An answer is taken as a call only when it is exactly a call of an offered tool.
      guard Set(keys) == ["name", "arguments"], tools.contains(where: { $0.name == name }),
        case .structure = arguments.kind
      else { return nil }
    }
    return LanguageModelToolCall(id: "call-" + UUID().uuidString, name: name, arguments: arguments)
  }

  private static func quoted(_ text: String) -> String {
    GeneratedContent(kind: .string(text)).jsonString
  }
}
