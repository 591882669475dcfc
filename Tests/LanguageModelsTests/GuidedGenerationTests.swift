import Foundation
import LanguageModels
import TestSupport
import Testing

/// A value written by hand as `Generable` (no macro), with one property per kind of guide.
struct Parcel: Generable, Equatable {
  var code: String
  var colour: String
  var version: String
  var priority: Int
  var weight: Double
  var tags: [String]
  var digits: [Int]
  var shelves: [Int]
  var handler: String?

  static var generationSchema: GenerationSchema {
    GenerationSchema(
      type: Parcel.self, description: "A parcel in a warehouse",
      properties: [
        .init(
          name: "code", description: "Shelf code", type: String.self,
          guides: [GenerationGuide<String>.pattern("[A-Z]{3}-[0-9]{2}")]),
        .init(name: "colour", type: String.self, guides: [.anyOf(["red", "green", "blue"])]),
        .init(name: "version", type: String.self, guides: [.constant("v1")]),
        .init(name: "priority", type: Int.self, guides: [.range(1...5)]),
        .init(name: "weight", description: "Kilograms", type: Double.self, guides: [.range(0.5...4.5)]),
        .init(
          name: "tags", type: [String].self,
          guides: [.count(3), .element(.anyOf(["fragile", "heavy", "urgent", "cold"]))]
        ),
        .init(name: "digits", type: [Int].self, guides: [.minimumCount(2), .maximumCount(4), .element(.range(0...9))]),
        .init(name: "shelves", type: [Int].self, guides: [.maximumCount(2)]),
        .init(name: "handler", type: String?.self, guides: [GenerationGuide<String>.pattern("[A-Z][a-z]{2,8}")]),
      ])
  }

  init(_ content: GeneratedContent) throws {
    code = try content.value(forProperty: "code")
    colour = try content.value(forProperty: "colour")
    version = try content.value(forProperty: "version")
    priority = try content.value(forProperty: "priority")
    weight = try content.value(forProperty: "weight")
    tags = try content.value(forProperty: "tags")
    digits = try content.value(forProperty: "digits")
    shelves = try content.value(forProperty: "shelves")
    handler = try content.value(forProperty: "handler")
  }

  var generatedContent: GeneratedContent {
    GeneratedContent(properties: [
      "code": code, "colour": colour, "version": version, "priority": priority, "weight": weight, "tags": tags,
      "digits": digits, "shelves": shelves, "handler": handler,
    ])
  }
}

/// One number with a range whose bounds are fractional and of both signs.
struct Reading: Generable {
  var x: Double

  static var generationSchema: GenerationSchema {
    GenerationSchema(
      type: Reading.self, properties: [.init(name: "x", type: Double.self, guides: [.range(-1.25...0.75)])])
  }

  init(_ content: GeneratedContent) throws { x = try content.value(forProperty: "x") }

  var generatedContent: GeneratedContent { GeneratedContent(properties: ["x": x]) }
}

/// Every guide is enforced while decoding: many sampled generations, all valid.
@Suite("Guided generation with real models", .serialized)
struct GuidedGenerationTests {
  static let tiny = SystemLanguageModel(weights: .tiny)

  @Test("every guide holds across seeds and temperatures", arguments: [0.4, 1.0, 1.6])
  func guidesHold(temperature: Double) async throws {
    for seed in UInt64(1)...6 {
      let session = LanguageModelSession(model: Self.tiny, instructions: "You describe parcels as JSON.")
      let options = GenerationOptions(
        sampling: .random(top: 50, seed: seed), temperature: temperature, maximumResponseTokens: 400)
      let parcel = try await session.respond(to: "Describe a parcel.", generating: Parcel.self, options: options)
        .content
      #expect(parcel.code.wholeMatch(of: /[A-Z]{3}-[0-9]{2}/) != nil, "code \(parcel.code)")
      #expect(["red", "green", "blue"].contains(parcel.colour))
      #expect(parcel.version == "v1")
      #expect((1...5).contains(parcel.priority), "priority \(parcel.priority)")
      #expect((0.5...4.5).contains(parcel.weight), "weight \(parcel.weight)")
      #expect(parcel.tags.count == 3 && parcel.tags.allSatisfy { ["fragile", "heavy", "urgent", "cold"].contains($0) })
      #expect((2...4).contains(parcel.digits.count) && parcel.digits.allSatisfy { (0...9).contains($0) })
      #expect(parcel.shelves.count <= 2)
      #expect(
        parcel.handler.map { $0.wholeMatch(of: /[A-Z][a-z]{2,8}/) != nil } ?? true, "handler \(parcel.handler ?? "")")
    }
  }

  @Test("number ranges with fractional and negative bounds hold")
  func fractionalBounds() async throws {
    for seed in UInt64(1)...12 {
      let session = LanguageModelSession(model: Self.tiny)
      let reading = try await session.respond(
        to: "Give a reading.", generating: Reading.self,
        options: GenerationOptions(sampling: .random(top: 100, seed: seed), temperature: 1.5, maximumResponseTokens: 40)
      ).content
      #expect((-1.25...0.75).contains(reading.x), "x = \(reading.x)")
    }
  }

  @Test("a run-time schema streams snapshots that grow property by property and end with the response")
  func streamingRuntimeSchema() async throws {
    let colour = DynamicGenerationSchema(name: "Colour", anyOf: ["red", "green", "blue"])
    let parcel = DynamicGenerationSchema(
      name: "Parcel", description: "A parcel in a warehouse",
      properties: [
        .init(name: "label", description: "What is written on it", schema: .init(type: String.self)),
        .init(name: "colour", schema: .init(referenceTo: "Colour")),
        .init(name: "priority", schema: .init(type: Int.self, guides: [.range(1...5)])),
        .init(
          name: "tags", schema: .init(arrayOf: .init(type: String.self), minimumElements: 1, maximumElements: 3)),
      ])
    let schema = try GenerationSchema(root: parcel, dependencies: [colour])
    let stream = LanguageModelSession(model: Self.tiny).streamResponse(
      to: "Describe a parcel.", schema: schema,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 300))
    var snapshots: [LanguageModelSession.ResponseStream<GeneratedContent>.Snapshot] = []
    for try await snapshot in stream { snapshots.append(snapshot) }
    let response = try await stream.collect()

    #expect(snapshots.count > 5, "\(snapshots.count) snapshots")
    #expect(snapshots.last?.content == response.content)
    #expect(snapshots.last?.content.isComplete == true)
    #expect(snapshots.first?.content.isComplete == false)
    #expect(Set(snapshots.map(\.content.id)).count == 1, "one identifier across the snapshots")
    // Each snapshot grows on the one before: keys never disappear, and the token count rises.
    var seen: [String] = []
    var tokens = 0
    var partlyFilled = 0
    for snapshot in snapshots {
      guard case .structure(_, let keys) = snapshot.content.kind else { continue }
      #expect(Array(keys.prefix(seen.count)) == seen, "\(keys) after \(seen)")
      #expect(snapshot.tokenCount >= tokens)
      if (1..<4).contains(keys.count) { partlyFilled += 1 }
      seen = keys
      tokens = snapshot.tokenCount
    }
    #expect(seen == ["label", "colour", "priority", "tags"])
    #expect(partlyFilled > 0, "no snapshot showed some properties but not all")
    let priority = try response.content.value(Int.self, forProperty: "priority")
    #expect((1...5).contains(priority))
  }

  @Test("streamed structured snapshots fill in property by property and end with the value")
  func streamingStructure() async throws {
    let session = LanguageModelSession(model: Self.tiny)
    let stream = session.streamResponse(
      to: "Describe a parcel.", generating: Parcel.self,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 400))
    var snapshots: [GeneratedContent] = []
    for try await snapshot in stream { snapshots.append(snapshot.rawContent) }
    let response = try await stream.collect()
    #expect(snapshots.count > 5)
    #expect(snapshots.last == response.rawContent)
    // Each snapshot's JSON is a prefix-consistent refinement: keys never disappear.
    var seen: [String] = []
    for snapshot in snapshots {
      guard case .structure(_, let keys) = snapshot.kind else { continue }
      #expect(Array(keys.prefix(seen.count)) == seen)
      seen = keys
    }
  }

  @Test("the quote that opens a text starting with a letter goes with the key before it, not in a pass of its own")
  func openingQuoteSettledByTheGrammar() async throws {
    let backend = LlamaBackend(weights: .tiny, savesPromptStates: false)
    // The same answer twice: once where the text may start with a punctuation mark, which the
    // tokenizer can join to the quote before it, and once where it starts with a letter.
    func reply(firstCharacter: String) async throws -> LanguageModelReply {
      let text = "^\(firstCharacter)[a-z ]{0,15}$"
      let schema = GenerationSchema(
        type: GeneratedContent.self, description: "A list",
        properties: [
          .init(name: "list", type: String.self, guides: [.pattern(text)]),
          .init(name: "item", type: String.self, guides: [.pattern(text)]),
        ])
      let request = LanguageModelRequest(
        messages: [.init(role: .user, content: "Sort this note: buy oat milk.")], responseFormat: .schema(schema),
        options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
      return try await backend.respond(to: request) { _ in }
    }
    let anyMark = try await reply(firstCharacter: "[a-z,.:;'()!?+/<>=-]")
    let letter = try await reply(firstCharacter: "[a-z]")
    #expect(letter.text.hasPrefix("{\"list\":\""), "\(letter.text)")
    let forced = try #require(letter.timing?.forcedTokens)
    let forcedBefore = try #require(anyMark.timing?.forcedTokens)
    // The first text's opening `":"` is evaluated with its key instead of sampled (the second
    // one's may be joined to the sampled quote that closes the text before it).
    #expect(forced > forcedBefore, "forced \(forced) against \(forcedBefore): \(letter.text)")
    #expect(letter.generatedTokens - forced < anyMark.generatedTokens - forcedBefore)
  }
}
