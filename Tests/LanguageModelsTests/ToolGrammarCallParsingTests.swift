import Testing

@testable import LanguageModels

/// How a reply becomes a tool call: the `<tool_call>` block the grammar offers, or an answer that
/// is nothing but a call of an offered tool (small models write that instead of the tags).
@Suite("Tool call parsing")
struct ToolGrammarCallParsingTests {
  let toolbox = try! ToolGrammar(tools: [
    LanguageModelToolSpecification(
      name: "get_weather", description: "The weather in a city.",
      parameters: .jsonSchema(#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#))
  ])!

  @Test("a <tool_call> block, a bare call object and a fenced one are calls")
  func calls() throws {
    for text in [
      "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
      #"{"name": "get_weather", "arguments": {"city": "Paris"}}"#,
      "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```",
    ] {
      let call = try #require(toolbox.parseCall(text), "\(text)")
      #expect(call.name == "get_weather")
      #expect(try call.arguments.value(String.self, forProperty: "city") == "Paris")
    }
  }

  @Test("answers that only look like calls stay answers")
  func answers() {
    for text in [
      "It is sunny in Paris.",
      #"{"name": "Ada", "arguments": {"city": "Paris"}}"#,
      #"{"name": "get_weather", "arguments": {"city": "Paris"}, "note": "extra"}"#,
      #"{"name": "get_weather", "arguments": "Paris"}"#,
      #"{"name": "get_weather", "arguments": {"city": "Paris"}} and more"#,
    ] {
      #expect(toolbox.parseCall(text) == nil, "\(text)")
    }
  }
}
