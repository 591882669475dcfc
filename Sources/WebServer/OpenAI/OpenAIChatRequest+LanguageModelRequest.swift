import Foundation
import LanguageModels

extension OpenAIChatRequest {
  /// The request for a ``LanguageModelBackend``: the conversation with the client's tool calls
  /// and tool outputs, the tools (their calls come back to the client, never run here), the
  /// answer's format (enforced by the grammar while decoding) and the sampling options.
  ///
  /// - Throws: a 400 ``OpenAIError`` when an assistant message's tool-call arguments are not JSON.
  func languageModelRequest() throws(OpenAIError) -> LanguageModelRequest {
    var toolNames: [String: String] = [:]
    var converted: [LanguageModelMessage] = []
    for (index, message) in messages.enumerated() {
      var calls: [LanguageModelToolCall] = []
      for call in message.toolCalls {
        guard let arguments = try? GeneratedContent(json: call.arguments) else {
          throw .invalid(
            "messages[\(index)]: the arguments of tool call \(call.id.prefix(40)) are not JSON",
            param: "messages[\(index)].tool_calls")
        }
        toolNames[call.id] = call.name
        calls.append(LanguageModelToolCall(id: call.id, name: call.name, arguments: arguments))
      }
      let role: LanguageModelMessage.Role =
        switch message.role {
        case "system": .system
        case "assistant": .assistant
        case "tool": .tool
        default: .user
        }
      converted.append(
        LanguageModelMessage(
          role: role, content: message.content, toolCalls: calls, toolCallID: message.toolCallID,
          toolName: message.name ?? message.toolCallID.flatMap { toolNames[$0] }))
    }
    var offered = tools
    let choice: LanguageModelRequest.ToolChoice
    switch toolChoice {
    case .auto: choice = .automatic
    case .none: choice = .none
    case .required: choice = .required
    case .function(let name):
      offered = tools.filter { $0.name == name }
      choice = .required
    }
    let format: LanguageModelResponseFormat =
      switch responseFormat {
      case .text: .text
      case .jsonObject: .jsonSchema(#"{"type":"object"}"#)
      case .jsonSchema(_, let schema): .jsonSchema(schema)
      }
    return LanguageModelRequest(
      messages: converted,
      tools: offered.map {
        LanguageModelToolSpecification(
          name: $0.name, description: $0.description, parameters: .jsonSchema($0.parameters))
      }, toolChoice: choice, responseFormat: format, options: generationOptions)
  }

  /// Sampling as asked: temperature 0 is greedy; `top_p` is nucleus sampling; a seed alone keeps
  /// the engine's usual filtering (top 40) with a repeatable generator.
  var generationOptions: GenerationOptions {
    let sampling: GenerationOptions.SamplingMode? =
      if temperature == 0 {
        .greedy
      } else if let topP {
        .random(probabilityThreshold: topP, seed: seed)
      } else if let seed {
        .random(top: 40, seed: seed)
      } else {
        nil
      }
    return GenerationOptions(sampling: sampling, temperature: temperature, maximumResponseTokens: maximumTokens)
  }
}
