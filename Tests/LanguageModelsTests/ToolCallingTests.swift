import Foundation
import LanguageModels
import Synchronization
import TestSupport
import Testing

/// A tool with generable arguments, written by hand: looks up a locker's code word.
struct LockerLookup: Tool {
  struct Arguments: Generable {
    var locker: Int

    static var generationSchema: GenerationSchema {
      GenerationSchema(
        type: Arguments.self,
        properties: [.init(name: "locker", description: "The locker number", type: Int.self, guides: [.range(1...99)])])
    }

    init(_ content: GeneratedContent) throws { locker = try content.value(forProperty: "locker") }

    var generatedContent: GeneratedContent { GeneratedContent(properties: ["locker": locker]) }
  }

  let name = "lookUpLocker"
  let description = "Returns the secret code word stored in a numbered locker."
  let log = CallLog()

  func call(arguments: Arguments) async throws -> String {
    log.calls.withLock { $0.append(arguments.locker) }
    return arguments.locker == 42 ? "The code word in locker 42 is MARIGOLD." : "Locker \(arguments.locker) is empty."
  }
}

/// The lockers a tool was asked about.
final class CallLog: Sendable {
  let calls = Mutex<[Int]>([])
}

/// A tool that always fails, to check how failures surface.
struct BrokenTool: Tool {
  struct Failure: Error {}
  typealias Arguments = LockerLookup.Arguments
  let name = "lookUpLocker"
  let description = "Returns the secret code word stored in a numbered locker."
  func call(arguments: Arguments) async throws -> String { throw Failure() }
}

@Suite("Tool calling with a real model", .serialized)
struct ToolCallingTests {
  static let model = SystemLanguageModel(weights: .standard)

  @Test("the model calls the tool with valid arguments and uses its output")
  func callsTool() async throws {
    let tool = LockerLookup()
    let session = LanguageModelSession(
      model: Self.model, tools: [tool], instructions: "Use the tools to answer.")
    let answer = try await session.respond(
      to: "What is the code word in locker 42?",
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
    #expect(tool.log.calls.withLock { $0 } == [42])
    #expect(answer.content.uppercased().contains("MARIGOLD"), "\(answer.content)")
    let calls = session.transcript.compactMap { entry -> Transcript.ToolCalls? in
      if case .toolCalls(let calls) = entry { return calls }
      return nil
    }
    #expect(calls.first?.first?.toolName == "lookUpLocker")
  }

  @Test("a failing tool surfaces as ToolCallError naming it")
  func failingTool() async throws {
    let session = LanguageModelSession(
      model: Self.model, tools: [BrokenTool()], instructions: "Use the tools to answer.")
    await #expect {
      _ = try await session.respond(
        to: "What is the code word in locker 42?",
        options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
    } throws: { error in
      (error as? LanguageModelSession.ToolCallError)?.tool.name == "lookUpLocker"
    }
  }
}
