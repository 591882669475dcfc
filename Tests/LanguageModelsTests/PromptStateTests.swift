import Foundation
import LanguageModels
import TestSupport
import Testing

/// The saved KV state of a system message: written on first use, restored instead of evaluated
/// later, a separate state for another prefix or grammar, a damaged file ignored and rewritten.
@Suite("Prompt state files with a real model", .serialized)
struct PromptStateTests {
  /// Instructions long enough to be worth saving (well over the 32-token minimum).
  static let instructions = """
    You sort short household notes into lists. Read the note, decide which list it belongs to \
    (groceries, repairs, errands, bills or other), and answer with the list's name and the \
    things the note asks for, one per line, in the note's own words. Never add anything the \
    note does not say.
    """
  static let prompt = "Note: buy oat milk, two lemons and a loaf of rye bread."

  /// A backend over the tiny model whose states go to `folder`.
  static func backend(_ folder: URL, saves: Bool = true) -> LlamaBackend {
    LlamaBackend(
      weights: .tiny,
      configuration: EngineConfiguration(environment: ["VOICENOTES_CACHE": folder.path, "HOME": folder.path]),
      savesPromptStates: saves)
  }

  static func request(
    _ instructions: String = instructions, prompt: String = prompt, format: LanguageModelResponseFormat = .text
  ) -> LanguageModelRequest {
    LanguageModelRequest(
      messages: [.init(role: .system, content: instructions), .init(role: .user, content: prompt)],
      responseFormat: format, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 24))
  }

  static func stateFiles(_ folder: URL) -> [URL] {
    let states = folder.appendingPathComponent("prompt-states")
    return ((try? FileManager.default.contentsOfDirectory(at: states, includingPropertiesForKeys: nil)) ?? [])
      .filter { $0.pathExtension == "kvstate" }
  }

  /// Fills the KV cache with another conversation, so the next request cannot find its prefix there.
  static func evict(_ backend: LlamaBackend) async throws {
    _ = try await backend.respond(
      to: request("A different system message, which shares nothing with the one under test: reply briefly.")
    ) { _ in }
  }

  @Test("the system message's state is written, then restored: fewer tokens evaluated, the same output")
  func writtenAndRestored() async throws {
    let folder = Fixtures.temporaryFolder("prompt-state")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = Self.backend(folder)
    try await Self.evict(backend)
    let first = try await backend.respond(to: Self.request()) { _ in }
    #expect(first.timing?.prefixState == .saved)
    let files = Self.stateFiles(folder)
    #expect(files.count == 1)  // the evicting system message is too short to be saved

    let again = try await backend.respond(to: Self.request()) { _ in }
    #expect(again.timing?.prefixState == .inMemory)
    #expect(again.text == first.text)

    try await Self.evict(backend)
    let restored = try await backend.respond(to: Self.request()) { _ in }
    #expect(restored.timing?.prefixState == .loaded)
    #expect(restored.text == first.text)
    let evaluated = try #require(restored.timing?.promptTokensEvaluated)
    let firstEvaluated = try #require(first.timing?.promptTokensEvaluated)
    #expect(evaluated < firstEvaluated - 32)
    #expect(evaluated > 0)
    #expect(restored.promptTokens == first.promptTokens)

    let unsaved = try await Self.backend(folder, saves: false).respond(to: Self.request()) { _ in }
    #expect(unsaved.timing?.prefixState == LanguageModelReply.Timing.PrefixState.none)
  }

  @Test("another system message or another grammar gets its own state file")
  func keyedByPrefixAndGrammar() async throws {
    let folder = Fixtures.temporaryFolder("prompt-state-keys")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = Self.backend(folder)
    try await Self.evict(backend)
    let plain = try await backend.respond(to: Self.request()) { _ in }
    #expect(plain.timing?.prefixState == .saved)

    try await Self.evict(backend)
    let schema = GenerationSchema(
      type: GeneratedContent.self, description: "A list",
      properties: [.init(name: "list", type: String.self, guides: [.anyOf(["groceries", "repairs", "other"])])])
    let guided = try await backend.respond(to: Self.request(format: .schema(schema))) { _ in }
    #expect(guided.timing?.prefixState == .saved)
    #expect(guided.text.contains("\"list\""))

    try await Self.evict(backend)
    let changed = try await backend.respond(to: Self.request(Self.instructions + " Be brief.")) { _ in }
    #expect(changed.timing?.prefixState == .saved)

    #expect(Self.stateFiles(folder).count == 3)  // plain, guided, changed (the evicting message is too short)
    try await Self.evict(backend)
    let original = try await backend.respond(to: Self.request()) { _ in }
    #expect(original.timing?.prefixState == .loaded)
    #expect(original.text == plain.text)
  }

  @Test("a corrupt or truncated state file is ignored and rewritten")
  func corruptFileRewritten() async throws {
    let folder = Fixtures.temporaryFolder("prompt-state-corrupt")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = Self.backend(folder)
    let evictor = Self.request(
      "A different system message, which shares nothing with the one under test: reply briefly.")
    _ = try await backend.respond(to: evictor) { _ in }
    let before = Set(Self.stateFiles(folder))
    let first = try await backend.respond(to: Self.request()) { _ in }
    #expect(first.timing?.prefixState == .saved)
    let file = try #require(Set(Self.stateFiles(folder)).subtracting(before).first)

    // One byte changed in the middle of the state.
    var bytes = [UInt8](try Data(contentsOf: file))
    bytes[bytes.count / 2] ^= 0x5A
    try Data(bytes).write(to: file)
    try await Self.evict(backend)
    let afterFlip = try await backend.respond(to: Self.request()) { _ in }
    #expect(afterFlip.timing?.prefixState == .saved)
    #expect(afterFlip.text == first.text)
    try await Self.evict(backend)
    #expect(try await backend.respond(to: Self.request()) { _ in }.timing?.prefixState == .loaded)

    // Cut short.
    let whole = try Data(contentsOf: file)
    try whole.prefix(whole.count / 3).write(to: file)
    try await Self.evict(backend)
    let afterCut = try await backend.respond(to: Self.request()) { _ in }
    #expect(afterCut.timing?.prefixState == .saved)
    #expect(afterCut.text == first.text)
    #expect(try Data(contentsOf: file).count == whole.count)
  }

  @Test("a request after one that shares a few words past the system message is evaluated from the system message")
  func chanceMatchForgotten() async throws {
    let folder = Fixtures.temporaryFolder("prompt-state-chance")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = Self.backend(folder)
    try await Self.evict(backend)
    let first = try await backend.respond(to: Self.request()) { _ in }
    #expect(first.timing?.prefixState == .saved)
    let fresh = try #require(first.timing?.promptTokensEvaluated)
    try await Self.evict(backend)
    let restored = try await backend.respond(to: Self.request()) { _ in }
    #expect(restored.timing?.prefixState == .loaded)
    let fromPrefix = try #require(restored.timing?.promptTokensEvaluated)
    #expect(fromPrefix < fresh)

    // The same opening words, then another list: without the rule, only the words after the
    // shared ones would be evaluated, in a batch of another size.
    let other = Self.request(prompt: "Note: buy oat milk, a bag of rice and some soap.")
    _ = try await backend.respond(to: other) { _ in }
    let after = try await backend.respond(to: Self.request()) { _ in }
    #expect(after.timing?.promptTokensEvaluated == fromPrefix)
    #expect(after.text == restored.text)

    // A conversation that goes on keeps its earlier turns.
    let turns = LanguageModelRequest(
      messages: Self.request().messages + [
        .init(role: .assistant, content: restored.text), .init(role: .user, content: "And for the weekend?"),
      ], options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 24))
    let followUp = try await backend.respond(to: turns) { _ in }
    #expect(try #require(followUp.timing?.promptTokensEvaluated) < fromPrefix)
  }
}
