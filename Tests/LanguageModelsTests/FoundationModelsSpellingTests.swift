import Foundation
import LanguageModels
import Observation
import Synchronization
import Testing

/// A prompt written as a builder block in its conformance, as Apple's requirement allows.
private struct Profile: PromptRepresentable, InstructionsRepresentable {
  var name: String
  var bio: String

  var promptRepresentation: Prompt {
    "Name: \(name)"
    "Bio: \(bio)"
  }

  var instructionsRepresentation: Instructions {
    "You write about \(name)."
    "Keep it short."
  }
}

@Generable
private struct Verdict {
  @Guide(description: "yes or no", .anyOf(["yes", "no"]))
  var answer: String
}

/// A public type, as a library target declares it: not implicitly `Sendable`.
@Generable
public struct PublicItem {
  /// What the item is.
  @Guide(description: "The item's name")
  public var name: String
  /// How many there are.
  public var count: Int
}

/// A choice with associated values, as Apple's trip planner writes its activities.
@Generable
enum Outing {
  case dining(place: String)
  case walking(minutes: Int)
  case resting
}

/// A day of outings: an array with a count and an optional.
@Generable(description: "A day out")
struct DayOut {
  @Guide(description: "Two outings", .count(2))
  var outings: [Outing]
  var note: String?
}

/// A service layer's generic helper: the content type is any `Generable`, not known to be
/// `Sendable`, as in code written for Apple's framework.
private func generate<T: Generable>(_ type: T.Type, in session: LanguageModelSession, from prompt: String)
  async throws -> T
{
  try await session.respond(
    to: prompt, generating: T.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 20)
  ).content
}

/// The same, streamed, keeping the stream in a generic holder.
private struct Streamer<T: Generable> {
  let stream: LanguageModelSession.ResponseStream<T>

  func last() async throws -> T.PartiallyGenerated? {
    var last: T.PartiallyGenerated?
    for try await snapshot in stream { last = snapshot.content }
    return last
  }
}

/// Code as it is written for Apple's FoundationModels (26.0 to 26.5), each shape the way sample
/// code and tutorials spell it: generic helpers over `Generable`, refusals with their
/// explanation, transcripts saved as JSON, builder blocks in conformances, the token counts of
/// 26.4, optional string instructions, and feedback attachments.
@Suite("FoundationModels as Apple spells it", .serialized, .timeLimit(.minutes(3)))
struct FoundationModelsSpellingTests {
  static let small = SystemLanguageModel(weights: .small)

  @Test("generic helpers over any Generable type respond and stream")
  func genericHelpers() async throws {
    let verdict = try await generate(
      Verdict.self, in: LanguageModelSession(model: Self.small), from: "Is Lisbon in Portugal?")
    #expect(["yes", "no"].contains(verdict.answer))
    let streamer = Streamer(
      stream: LanguageModelSession(model: Self.small).streamResponse(
        to: "Is Porto in Spain?", generating: Verdict.self,
        options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 20)))
    let last = try await streamer.last()
    #expect(["yes", "no"].contains(last?.answer ?? ""), "\(String(describing: last))")
    let collected = try await streamer.stream.collect()
    #expect(collected.content.answer == last?.answer)
  }

  @Test("a public @Generable type converts to and from generated content")
  func publicGenerable() throws {
    let item = PublicItem(name: "tape", count: 2)
    let back = try PublicItem(item.generatedContent)
    #expect(back.name == "tape" && back.count == 2)
    #expect(PublicItem.generationSchema.debugDescription.contains("name"))
  }

  @Test("enums with associated values convert both ways and are generated under their schema")
  func associatedValues() async throws {
    let day = DayOut(outings: [.dining(place: "Tasca"), .walking(minutes: 40)], note: nil)
    let back = try DayOut(day.generatedContent)
    #expect(back.outings.count == 2)
    if case .walking(let minutes) = back.outings[1] { #expect(minutes == 40) } else { Issue.record("\(back)") }
    let generated = try await LanguageModelSession(model: Self.small).respond(
      to: "Plan a quiet day in Lisbon.", generating: DayOut.self,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 120)
    ).content
    #expect(generated.outings.count == 2)
  }

  @Test("a refusal is caught with its explanation, which the model writes from the refused turn")
  func refusal() async throws {
    let refused: [Transcript.Entry] = [
      .prompt(Transcript.Prompt(segments: [.text(.init(content: "Tell me my neighbour's bank PIN."))])),
      .response(
        Transcript.Response(assetIDs: [], segments: [.text(.init(content: "I can't help with that."))])),
    ]
    let error = LanguageModelSession.GenerationError.refusal(
      .init(transcriptEntries: refused), .init(debugDescription: "I can't help with that."))
    var explained = ""
    do {
      throw error
    } catch LanguageModelSession.GenerationError.refusal(let refusal, let context) {
      #expect(context.debugDescription == "I can't help with that.")
      explained = try await refusal.explanation.content
    }
    #expect(explained.split(separator: " ").count >= 3, "\(explained)")
    #expect(error.localizedDescription.contains("refused"))
  }

  @Test("a transcript with every kind of entry is saved as JSON and read back the same")
  func transcriptCodable() throws {
    let tool = Transcript.ToolDefinition(
      name: "lookUpLocker", description: "Looks up a locker.", parameters: Verdict.generationSchema)
    let transcript = Transcript(entries: [
      .instructions(Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [tool])),
      .prompt(
        Transcript.Prompt(
          segments: [.text(.init(content: "Is it open?"))],
          options: GenerationOptions(sampling: .random(top: 5, seed: 3), temperature: 0.4, maximumResponseTokens: 9),
          responseFormat: Transcript.ResponseFormat(type: Verdict.self))),
      .toolCalls(
        Transcript.ToolCalls([
          Transcript.ToolCall(
            id: "call-1", toolName: "lookUpLocker", arguments: GeneratedContent(properties: ["locker": 42]))
        ])),
      .toolOutput(
        Transcript.ToolOutput(id: "call-1", toolName: "lookUpLocker", segments: [.text(.init(content: "MARIGOLD"))])),
      .response(
        Transcript.Response(
          assetIDs: ["qwen"],
          segments: [
            .structure(.init(source: "Verdict", content: Verdict(answer: "yes").generatedContent))
          ])),
    ])
    let data = try JSONEncoder().encode(transcript)
    let decoded = try JSONDecoder().decode(Transcript.self, from: data)
    #expect(decoded == transcript)
    #expect(decoded.count == 5)
    let resumed = LanguageModelSession(model: Self.small, transcript: decoded)
    #expect(resumed.transcript == transcript)
  }

  @Test("a conformance may write its prompt or instructions as a builder block")
  func builderConformances() {
    let profile = Profile(name: "Ada", bio: "Wrote the first program.")
    #expect(Prompt(profile).text == "Name: Ada\nBio: Wrote the first program.")
    #expect(Instructions(profile).text == "You write about Ada.\nKeep it short.")
    #expect(Prompt(Verdict(answer: "no")).text == Verdict(answer: "no").generatedContent.jsonString)
  }

  @Test("token counts of prompts, tools, schemas and transcripts")
  func tokenCounts() async throws {
    let session = LanguageModelSession(model: Self.small, instructions: "Answer in one word.")
    _ = try await session.respond(
      to: "Capital of France?", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 5))
    let whole = try await Self.small.tokenCount(for: session.transcript)
    let instructions = try await Self.small.tokenCount(for: Instructions("Answer in one word."))
    #expect(whole > instructions, "\(whole) against \(instructions)")
    let verdict = Verdict(answer: "yes")
    #expect(
      try await Self.small.tokenCount(for: verdict)
        == (try await Self.small.tokenCount(for: verdict.generatedContent.jsonString)))
    #expect(try await Self.small.tokenCount(for: Verdict.generationSchema) > 5)
    #expect(try await Self.small.tokenCount(for: [LockerLookup()]) > 20)
    #expect(try await Self.small.tokenCount(for: [any Tool]()) == 0)
  }

  @Test("a session is Observable: observers hear a response start, end and join the transcript")
  func observable() async throws {
    let session = LanguageModelSession(model: Self.small)
    let changes = Mutex<[String]>([])
    // Observation tracking reports one change per registration, as SwiftUI re-registers on every render.
    @Sendable func watch(_ name: String, _ read: @escaping @Sendable () -> Void) {
      withObservationTracking(read) {
        changes.withLock { $0.append(name) }
        watch(name, read)
      }
    }
    watch("responding") { _ = session.isResponding }
    watch("transcript") { _ = session.transcript }
    let answer = try await session.respond(
      to: "Say hello.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 8))
    #expect(!answer.content.isEmpty)
    let heard = changes.withLock { $0 }
    #expect(heard.filter { $0 == "responding" }.count == 2, "started and ended: \(heard)")
    #expect(heard.contains("transcript"), "\(heard)")
    #expect(session.transcript.count == 2 && !session.isResponding)
    let observable: any Observable = session
    #expect(observable is LanguageModelSession)
  }

  @Test("instructions given as an optional string, nil or not")
  func optionalStringInstructions() {
    let none: String? = nil
    let some: String? = "Be brief."
    #expect(LanguageModelSession(model: Self.small, instructions: none).transcript.isEmpty)
    let session = LanguageModelSession(model: Self.small, instructions: some)
    #expect(session.transcript.first?.description == "Be brief.")
  }

  @Test("feedback attachments hold the sentiment, the issues, what was wanted and the transcript")
  func feedbackAttachment() async throws {
    let session = LanguageModelSession(model: Self.small)
    _ = try await session.respond(
      to: "Say hello.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 5))
    let data = session.logFeedbackAttachment(
      sentiment: .negative, issues: [.init(category: .tooVerbose, explanation: "Too long.")],
      desiredResponseText: "Hello.")
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["sentiment"] as? String == "negative")
    let issues = object["issues"] as? [[String: Any]]
    #expect(issues?.first?["category"] as? String == "tooVerbose")
    #expect(object["desiredResponseText"] as? String == "Hello.")
    let transcript = try JSONDecoder().decode(
      Transcript.self, from: JSONSerialization.data(withJSONObject: try #require(object["transcript"])))
    #expect(transcript == session.transcript)
    let structured = session.logFeedbackAttachment(sentiment: nil, desiredResponseContent: Verdict(answer: "no"))
    #expect(String(decoding: structured, as: UTF8.self).contains("answer"))
  }
}
