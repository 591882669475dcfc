import Foundation
import LanguageModels
import TestSupport
import Testing

/// Sessions on real models: text, streaming, multi-turn, limits and errors.
@Suite("LanguageModelSession with real models", .serialized)
struct LanguageModelSessionTests {
  static let tiny = SystemLanguageModel(weights: .tiny)
  static let small = SystemLanguageModel(weights: .small)

  @Test("availability says what is missing")
  func availability() throws {
    let empty = Fixtures.temporaryFolder("no-llm")
    defer { try? FileManager.default.removeItem(at: empty) }
    let missing = SystemLanguageModel(weights: .tiny, modelDirectory: ModelDirectory(url: empty))
    #expect(missing.availability == .unavailable(.modelNotReady))
    #expect(!missing.isAvailable)
    #expect(Self.tiny.availability == .available)
    #expect(SystemLanguageModel.default.contextSize >= 2048)
  }

  @Test("tokens are counted with the model's own vocabulary")
  func tokenCount() async throws {
    let short = try await Self.small.tokenCount(for: "Hello, world!")
    let long = try await Self.small.tokenCount(for: String(repeating: "Hello, world! ", count: 20))
    #expect(short >= 2 && short <= 6)
    #expect(long > short * 15)
  }

  @Test("a greedy response is repeatable, and the transcript records the turn")
  func greedyText() async throws {
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 24)
    let first = LanguageModelSession(model: Self.tiny, instructions: "Answer in one short sentence.")
    let answer = try await first.respond(to: "What colour is the sky on a clear day?", options: options)
    #expect(!answer.content.isEmpty)
    #expect(first.transcript.count == 3)
    #expect(answer.transcriptEntries.count == 2)
    let second = LanguageModelSession(model: Self.tiny, instructions: "Answer in one short sentence.")
    let again = try await second.respond(to: "What colour is the sky on a clear day?", options: options)
    #expect(again.content == answer.content)
  }

  @Test("a second turn sees the first")
  func multiTurn() async throws {
    let session = LanguageModelSession(model: Self.small, instructions: "You are a helpful assistant. Be brief.")
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 20)
    _ = try await session.respond(to: "My name is Ada Lovelace. Please remember it.", options: options)
    let answer = try await session.respond(to: "What is my first name? Reply with the name only.", options: options)
    #expect(answer.content.contains("Ada"), "\(answer.content)")
    #expect(session.transcript.count == 5)
  }

  @Test("streamed snapshots only grow and end with the final text")
  func streamingText() async throws {
    let session = LanguageModelSession(model: Self.tiny)
    let stream = session.streamResponse(
      to: "Write a sentence about the sea.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 30))
    var previous = ""
    var count = 0
    for try await snapshot in stream {
      #expect(snapshot.content.hasPrefix(previous))
      previous = snapshot.content
      count += 1
    }
    let response = try await stream.collect()
    #expect(count > 3)
    #expect(response.content == previous)
  }

  @Test("a prompt longer than the context window throws exceededContextWindowSize")
  func contextOverflow() async throws {
    let model = SystemLanguageModel(weights: .tiny, contextSize: 256)
    let session = LanguageModelSession(model: model)
    let long = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 60)
    await #expect {
      _ = try await session.respond(to: long)
    } throws: { error in
      guard case .exceededContextWindowSize = error as? LanguageModelSession.GenerationError else { return false }
      return true
    }
  }

  @Test("a second request while one runs throws concurrentRequests; the session is free again after")
  func concurrentRequests() async throws {
    let held = HeldBackend(Self.tiny.backend)
    let session = LanguageModelSession(model: SystemLanguageModel(backend: held))
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 20)
    let first = Task { try await session.respond(to: "Count from one to five in words.", options: options) }
    var polls = 0
    while !held.hasReply && polls < 600 {
      try await Task.sleep(for: .milliseconds(50))
      polls += 1
    }
    #expect(held.hasReply && session.isResponding)
    await #expect {
      _ = try await session.respond(to: "Hello", options: options)
    } throws: { error in
      guard case .concurrentRequests = error as? LanguageModelSession.GenerationError else { return false }
      return true
    }
    held.open()
    #expect(try await !first.value.content.isEmpty)
    #expect(!session.isResponding)
    #expect(try await !session.respond(to: "Hello", options: options).content.isEmpty)
  }
}
