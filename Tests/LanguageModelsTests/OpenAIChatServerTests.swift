import Foundation
import Synchronization
import TestSupport
import Testing

@testable import LanguageModels

/// A `@Generable` type with nested types, an enumeration and the guides the parcel does not have.
@Generable(description: "A delivery route")
struct DeliveryRoute: Equatable {
  @Guide(description: "Route code", .pattern("R-[0-9]{3}"))
  var code: String
  @Guide(description: "The vehicle")
  var vehicle: Vehicle
  @Guide(description: "Two to three stops", .minimumCount(2), .maximumCount(3))
  var stops: [Stop]
}

/// A vehicle kind.
@Generable
enum Vehicle: Equatable {
  case van, bicycle, truck
}

/// One stop of a route.
@Generable
struct Stop: Equatable {
  @Guide(description: "A street name")
  var street: String
  @Guide(description: "Minutes from the depot", .minimum(5), .maximum(90))
  var minutes: Int
}

/// The OpenAI-compatible backend against a real llama-server started on loopback: every guide
/// kind, streaming snapshots, a tool round trip, token counts equal to the local engine's, a
/// server killed mid-stream and cancellation.
@Suite("OpenAI chat backend against llama-server", .serialized)
struct OpenAIChatServerTests {
  static let small = Fixtures.models.appendingPathComponent("qwen-0.5b.gguf")
  static let standard = Fixtures.models.appendingPathComponent("qwen-1.5b.gguf")
  static let tiny = Fixtures.models.appendingPathComponent("smollm-135m.gguf")

  static func start(_ model: URL, context: Int = 4096) async throws -> ReferenceServer {
    try await ReferenceServer.start(.llama, model: model, arguments: ["-c", String(context), "--parallel", "1"])
  }

  static func model(_ server: ReferenceServer, generic: Bool = false) -> SystemLanguageModel {
    let endpoint = EngineConfiguration.ServerEndpoint(url: server.baseURL)
    if generic {
      return SystemLanguageModel(backend: OpenAIChatBackend(server: endpoint, treatsServerAsGeneric: true))
    }
    return SystemLanguageModel(server: endpoint)
  }

  @Test("every guide kind holds through llama-server, with our grammar and with json_schema")
  func guidedGeneration() async throws {
    let server = try await Self.start(Self.small)
    defer { server.stop() }
    for generic in [false, true] {
      let session = LanguageModelSession(model: Self.model(server, generic: generic))
      let started = ContinuousClock.now
      let parcel = try await session.respond(
        to: "Describe one parcel in the warehouse.", generating: Parcel.self,
        options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 300))
      #expect(Parcel.generationSchema.violations(of: parcel.rawContent) == [], "\(parcel.rawContent.jsonString)")
      let route = try await session.respond(
        to: "Plan a short delivery route.", generating: DeliveryRoute.self,
        options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 300))
      #expect(DeliveryRoute.generationSchema.violations(of: route.rawContent) == [], "\(route.rawContent.jsonString)")
      #expect((2...3).contains(route.content.stops.count))
      print(
        "guided generation through llama-server (\(generic ? "json_schema" : "grammar")): \(ContinuousClock.now - started)"
      )
    }
  }

  @Test("streamed snapshots grow and the last equals the response")
  func streaming() async throws {
    let server = try await Self.start(Self.small)
    defer { server.stop() }
    let session = LanguageModelSession(model: Self.model(server))
    let stream = session.streamResponse(
      to: "Plan a short delivery route.", generating: DeliveryRoute.self,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 300))
    var snapshots: [DeliveryRoute.PartiallyGenerated] = []
    var raws: [String] = []
    for try await snapshot in stream {
      snapshots.append(snapshot.content)
      raws.append(snapshot.rawContent.jsonString)
    }
    let response = try await stream.collect()
    #expect(snapshots.count > 5, "only \(snapshots.count) snapshots")
    #expect(snapshots.last?.code == response.content.code)
    #expect(snapshots.last?.stops?.count == response.content.stops.count)
    #expect(raws.last == response.rawContent.jsonString)
    let text = session.streamResponse(
      to: "Say hello in five words.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 20))
    var texts: [String] = []
    for try await snapshot in text { texts.append(snapshot.content) }
    #expect(zip(texts, texts.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "\(texts)")
    #expect(texts.last == (try await text.collect()).content)
  }

  @Test("a tool call round trip: the tool runs and its output is used")
  func toolCall() async throws {
    let server = try await Self.start(Self.standard)
    defer { server.stop() }
    let tool = LockerLookup()
    let session = LanguageModelSession(
      model: Self.model(server), tools: [tool], instructions: "Use the tools to answer.")
    let answer = try await session.respond(
      to: "What is the code word in locker 42?",
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
    #expect(tool.log.calls.withLock { $0 } == [42])
    #expect(answer.content.uppercased().contains("MARIGOLD"), "\(answer.content)")
    let kinds = session.transcript.map { entry -> String in
      switch entry {
      case .instructions: "instructions"
      case .prompt: "prompt"
      case .toolCalls: "calls"
      case .toolOutput: "output"
      case .response: "response"
      }
    }
    #expect(kinds == ["instructions", "prompt", "calls", "output", "response"])
  }

  @Test("token counts equal the local engine's; the context size comes from the server")
  func tokenCounts() async throws {
    let server = try await Self.start(Self.small, context: 3072)
    defer { server.stop() }
    let remote = Self.model(server)
    let local = SystemLanguageModel(weights: .small)
    for text in [
      "Hello, world!", "Café naïve — 東京 🚀", String(repeating: "voice notes ", count: 50), "<|im_start|>user",
    ] {
      let counted = try await remote.tokenCount(for: text)
      #expect(counted == (try await local.tokenCount(for: text)), "\(text)")
    }
    #expect(try await remote.backend.contextSize() == 3072)
  }

  @Test("a server killed mid-stream ends the stream with a clear error, at once")
  func killedMidStream() async throws {
    let server = try await Self.start(Self.tiny)
    let session = LanguageModelSession(model: Self.model(server))
    let stream = session.streamResponse(
      to: "Tell me a very long story about a lighthouse keeper.",
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 2000))
    let started = ContinuousClock.now
    var killedAt: ContinuousClock.Instant?
    do {
      for try await snapshot in stream where killedAt == nil && snapshot.content.count > 20 {
        server.kill()
        killedAt = .now
      }
      Issue.record("the stream ended without an error")
    } catch {
      let message = error.localizedDescription
      #expect(error is LanguageModelServerError, "\(error)")
      #expect(
        message.contains(server.baseURL.absoluteString.trimmingCharacters(in: .init(charactersIn: "/"))), "\(message)")
      if let killedAt { #expect(ContinuousClock.now - killedAt < .seconds(10)) }
      print("killed mid-stream after \(killedAt.map { $0 - started } ?? .zero): \(message)")
    }
    #expect(killedAt != nil)
  }

  @Test("cancelling the task aborts the request")
  func cancellation() async throws {
    let server = try await Self.start(Self.tiny)
    defer { server.stop() }
    let model = Self.model(server)
    let task = Task {
      try await LanguageModelSession(model: model).respond(
        to: "Tell me a very long story about a lighthouse keeper.",
        options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 3000))
    }
    try await Task.sleep(for: .seconds(2))
    let cancelled = ContinuousClock.now
    task.cancel()
    let result = await task.result
    #expect(ContinuousClock.now - cancelled < .seconds(5))
    #expect(throws: CancellationError.self) { try result.get() }
    // The server is free again: a new request succeeds.
    let answer = try await LanguageModelSession(model: model).respond(
      to: "Say hi.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 5))
    #expect(!answer.content.isEmpty)
  }
}
