import Foundation
import LanguageModels
import Testing

@Generable
private struct City: Equatable {
  @Guide(description: "The city's name")
  let name: String
  @Guide(.range(0...100))
  let rating: Int
}

/// The remaining shapes of FoundationModels' API: Generable values in builders, the builder and
/// schema forms of respond and streamResponse, tokenUsage(for:).
@Suite("FoundationModels' shapes", .serialized, .timeLimit(.minutes(3)))
struct FoundationModelsShapeTests {
  static let small = SystemLanguageModel(weights: .small)

  @Test("a @Generable value in an Instructions or Prompt builder reads as its JSON")
  func generableInBuilders() {
    let example = City(name: "Lisbon", rating: 90)
    let instructions = Instructions {
      "Rate cities. For example:"
      example
      ["Porto", "Faro"]
    }
    #expect(instructions.text.contains(#""name":"Lisbon""#), "\(instructions.text)")
    #expect(instructions.text.contains(#"["Porto","Faro"]"#), "\(instructions.text)")
    let prompt = Prompt { example }
    #expect(prompt.text == example.generatedContent.jsonString)
  }

  @Test("tokenUsage(for:) counts the same tokens as tokenCount(for:)")
  func tokenUsage() async throws {
    let text = "Ask not what your country can do for you."
    let count = try await Self.small.tokenCount(for: text)
    #expect(try await Self.small.tokenUsage(for: text).tokenCount == count)
    #expect(try await Self.small.tokenUsage(for: Prompt(text)).tokenCount == count)
    #expect(try await Self.small.tokenUsage(for: Instructions(text)).tokenCount == count)
    #expect((5...20).contains(count))
  }

  @Test("respond and streamResponse with a builder prompt or a run-time schema follow the schema")
  func builderAndSchemaForms() async throws {
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 60)
    let session = LanguageModelSession(model: Self.small)
    let city = try await session.respond(generating: City.self, options: options) {
      "Rate the city of Porto."
    }.content
    #expect((0...100).contains(city.rating))

    var snapshots: [City.PartiallyGenerated] = []
    for try await snapshot in LanguageModelSession(model: Self.small).streamResponse(
      generating: City.self, options: options, prompt: { "Rate the city of Faro." })
    {
      snapshots.append(snapshot.content)
    }
    #expect(snapshots.last?.name?.isEmpty == false)
    #expect(snapshots.last?.rating.map { (0...100).contains($0) } == true)

    let schema = City.generationSchema
    let content = try await LanguageModelSession(model: Self.small).respond(
      schema: schema, options: options, prompt: { "Rate the city of Braga." }
    ).content
    #expect((try? City(content)) != nil, "\(content.jsonString)")
    var last: GeneratedContent?
    for try await snapshot in LanguageModelSession(model: Self.small).streamResponse(
      to: "Rate the city of Coimbra.", schema: schema, options: options)
    {
      last = snapshot.content
    }
    #expect(last.flatMap { try? City($0) } != nil)
  }
}
