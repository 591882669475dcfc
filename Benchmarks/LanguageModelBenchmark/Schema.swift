import Foundation
import LanguageModels

/// `schema`: what `includeSchemaInPrompt` costs (prompt tokens, latency) and what it buys (the
/// output), for a note analysis streamed as a `@Generable` type. The grammar applies either way.
struct SchemaResult: Encodable {
  var command = "schema"
  var model: String
  var threads: Int
  var runs: Int
  var withSchema: SchemaVariant
  var withoutSchema: SchemaVariant
}

/// One setting of `includeSchemaInPrompt`.
struct SchemaVariant: Encodable {
  /// Tokens of the rendered prompt: chat template, instructions, prompt, and the schema text the
  /// session appends when asked to.
  var promptTokens: Int
  /// Median seconds to the first snapshot (the prompt's evaluation and the first tokens) and to
  /// the complete response.
  var firstSnapshotSeconds: Double
  var totalSeconds: Double
  /// Whether the output reached the token limit (700) before the value was complete (a weak
  /// model can loop inside the grammar); then it counts as 700 tokens and found nothing.
  var reachedLimit: Bool
  /// The output (greedy: the same every run), its size, and what it found.
  var outputTokens: Int
  var title: String
  var tags: [String]
  var people: [String]
  var actionItems: [String]
}

func runSchema(_ arguments: Arguments) async throws -> SchemaResult {
  log("schema: loading \(arguments.model)")
  let (model, _) = try await loadModel(arguments.model)
  let prompt = Texts.analysisRequest
  let instructions = Texts.analystInstructions
  let limit = 700

  var firsts: [Bool: [Double]] = [:]
  var totals: [Bool: [Double]] = [:]
  var outputs: [Bool: (text: String, value: MeetingNoteAnalysis)] = [:]
  for round in 0..<arguments.runs {
    for include in round % 2 == 0 ? [true, false] : [false, true] {
      try await evictCache(model)  // every run evaluates its whole prompt
      let session = LanguageModelSession(model: model, instructions: instructions)
      let start = clock.now
      var first: ContinuousClock.Instant?
      let stream = session.streamResponse(
        to: prompt, generating: MeetingNoteAnalysis.self, includeSchemaInPrompt: include, options: greedy(limit))
      do {
        for try await _ in stream where first == nil {
          first = clock.now
        }
        let response = try await stream.collect()
        outputs[include] = (responseText(response.transcriptEntries), response.content)
      } catch LanguageModelSession.GenerationError.decodingFailure(let context)
        where context.debugDescription.contains("maximumResponseTokens")
      {
        outputs[include] = nil  // a weak model looped inside the grammar until the limit
      }
      let end = clock.now
      firsts[include, default: []].append(((first ?? end) - start).seconds)
      totals[include, default: []].append((end - start).seconds)
      log(
        "schema: round \(round + 1), includeSchemaInPrompt \(include): \(String(format: "%.2f", (end - start).seconds)) s"
      )
    }
  }

  func variant(_ include: Bool) async throws -> SchemaVariant {
    // The text the session appends to the prompt (LanguageModelSession.run) when the schema is included.
    let schemaText =
      "\n\nRespond with JSON that follows this schema:\n"
      + MeetingNoteAnalysis.generationSchema.promptDescription()
    let rendered = chatML(instructions: instructions, prompt: prompt + (include ? schemaText : ""))
    let output = outputs[include]
    var outputTokens = limit
    if let output { outputTokens = try await model.tokenCount(for: output.text) }
    return SchemaVariant(
      promptTokens: try await model.tokenCount(for: rendered), firstSnapshotSeconds: median(firsts[include] ?? []),
      totalSeconds: median(totals[include] ?? []), reachedLimit: output == nil,
      outputTokens: outputTokens,
      title: output?.value.title ?? "", tags: output?.value.tags ?? [], people: output?.value.people ?? [],
      actionItems: output?.value.actionItems.map { "\($0.task) (\($0.owner)\($0.isDone ? ", done" : ""))" } ?? [])
  }
  return SchemaResult(
    model: arguments.model, threads: engineThreads, runs: arguments.runs, withSchema: try await variant(true),
    withoutSchema: try await variant(false))
}
