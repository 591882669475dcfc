import Foundation
import Testing

@testable import LanguageModels

/// Token counts come from llama.cpp's tokenizer for the model's own vocabulary.
@Suite("Token counting", .serialized)
struct TokenizerTests {
  @Test("counts match llama.cpp's tokenization, which round-trips the text")
  func countsMatchTokenizer() async throws {
    let model = SystemLanguageModel(weights: .small)
    let engine = try model.engine()
    for text in ["Hello, world!", "Café naïve — 東京 🚀", String(repeating: "voice notes ", count: 50)] {
      let tokens = await engine.tokenize(text, special: false)
      let count = try await model.tokenCount(for: text)
      #expect(count == tokens.count)
      #expect(await engine.detokenize(tokens) == text)
    }
    // Control tokens of the chat template are single tokens.
    #expect(await engine.tokenize("<|im_start|>", special: true).count == 1)
  }

  @Test("a formatted conversation counts instructions, prompt and template tokens")
  func conversationCount() async throws {
    let model = SystemLanguageModel(weights: .small)
    let instructions = try await model.tokenCount(for: Instructions("You are a careful assistant."))
    let prompt = try await model.tokenCount(for: Prompt("List three colours."))
    let engine = try model.engine()
    let formatted = try await engine.format([
      LlamaMessage(role: "system", content: "You are a careful assistant."),
      LlamaMessage(role: "user", content: "List three colours."),
    ])
    let total = await engine.tokenize(formatted).count
    #expect(total > instructions + prompt)
    #expect(total < instructions + prompt + 20)
  }
}
