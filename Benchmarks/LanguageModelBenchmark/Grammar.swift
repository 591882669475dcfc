import Foundation
import LanguageModels

/// `grammar`: what enforcing a `@Generable` type's grammar costs per generated token.
///
/// The same prompt (asking for the analysis JSON in words) is answered twice per round: as free
/// text, and with `respond(to:generating:includeSchemaInPrompt: false)`, which adds only the
/// grammar. Both requests are identical up to the sampler, and the prompt is already in the KV
/// cache (a priming request evaluates it first), so each run's time is generation plus one
/// re-evaluated prompt token, for free text and guided alike; the guided run also includes
/// compiling the schema to a grammar and parsing it.
struct GrammarResult: Encodable {
  var command = "grammar"
  var model: String
  var threads: Int
  var runs: Int
  /// Seconds of the priming request, which evaluates the prompt (not counted).
  var primeSeconds: Double
  /// Output tokens, re-tokenized with `tokenCount(for:)`; a guided output that reached the
  /// token limit (700) counts as that many tokens, and its text is empty.
  var freeTokens: Int
  var guidedTokens: Int
  /// Median seconds per request.
  var freeSeconds: Double
  var guidedSeconds: Double
  /// Medians of each run's tokens / seconds.
  var freeTokensPerSecond: Double
  var guidedTokensPerSecond: Double
  /// How much longer a guided token takes than a free one, in percent.
  var overheadPercent: Double
  /// Whether the two outputs are the same text, and the same JSON value (ignoring a code fence
  /// and formatting in the free one).
  var sameText: Bool
  var sameJSON: Bool
  /// Whether the free output decodes as the `@Generable` type at all.
  var freeDecodes: Bool
  var freeText: String
  var guidedText: String
}

/// `grammar --print-prompt`: the rendered prompt and the type's JSON Schema, for llama.cpp's CLI
/// to generate the same analysis with and without its own grammar (`--json-schema`).
struct GrammarPrompt: Encodable {
  var command = "grammar-prompt"
  var model: String
  var renderedPrompt: String
  var jsonSchema: String
}

func runGrammarPrompt(_ arguments: Arguments) -> GrammarPrompt {
  GrammarPrompt(
    model: arguments.model, renderedPrompt: chatML(instructions: Texts.analystInstructions, prompt: Texts.jsonRequest),
    jsonSchema: MeetingNoteAnalysis.generationSchema.jsonSchema())
}

func runGrammar(_ arguments: Arguments) async throws -> GrammarResult {
  log("grammar: loading \(arguments.model)")
  let (model, _) = try await loadModel(arguments.model)
  let limit = 700
  let options = greedy(limit)

  func free() async throws -> (seconds: Double, text: String) {
    let session = LanguageModelSession(model: model, instructions: Texts.analystInstructions)
    let start = clock.now
    let response = try await session.respond(to: Texts.jsonRequest, options: options)
    return ((clock.now - start).seconds, response.content)
  }
  func guided() async throws -> (seconds: Double, text: String) {
    let session = LanguageModelSession(model: model, instructions: Texts.analystInstructions)
    let start = clock.now
    do {
      let response = try await session.respond(
        to: Texts.jsonRequest, generating: MeetingNoteAnalysis.self, includeSchemaInPrompt: false, options: options)
      return ((clock.now - start).seconds, responseText(response.transcriptEntries))
    } catch LanguageModelSession.GenerationError.decodingFailure(let context)
      where context.debugDescription.contains("maximumResponseTokens")
    {
      // A weak model can loop inside the grammar until the limit: exactly `limit` tokens, text unknown.
      return ((clock.now - start).seconds, "")
    }
  }

  log("grammar: priming (evaluates the prompt once)")
  let prime = try await free()
  var freeRuns: [(seconds: Double, text: String)] = []
  var guidedRuns: [(seconds: Double, text: String)] = []
  for round in 0..<arguments.runs {
    // Alternate which goes first, so that drift in machine load hits both alike.
    for guidedFirst in round % 2 == 0 ? [false, true] : [true, false] {
      if guidedFirst {
        guidedRuns.append(try await guided())
        log("grammar: round \(round + 1) guided \(String(format: "%.2f", guidedRuns.last!.seconds)) s")
      } else {
        freeRuns.append(try await free())
        log("grammar: round \(round + 1) free \(String(format: "%.2f", freeRuns.last!.seconds)) s")
      }
    }
  }

  let freeText = freeRuns.last!.text
  let guidedText = guidedRuns.last!.text
  let freeTokens = try await model.tokenCount(for: freeText)
  let guidedTokens = guidedText.isEmpty ? limit : try await model.tokenCount(for: guidedText)
  let freeRate = median(freeRuns.map { Double(freeTokens) / $0.seconds })
  let guidedRate = median(guidedRuns.map { Double(guidedTokens) / $0.seconds })
  let freeJSON = try? GeneratedContent(json: withoutCodeFence(freeText))
  let guidedJSON = try? GeneratedContent(json: guidedText)
  return GrammarResult(
    model: arguments.model, threads: engineThreads, runs: arguments.runs, primeSeconds: prime.seconds,
    freeTokens: freeTokens, guidedTokens: guidedTokens, freeSeconds: median(freeRuns.map(\.seconds)),
    guidedSeconds: median(guidedRuns.map(\.seconds)), freeTokensPerSecond: freeRate,
    guidedTokensPerSecond: guidedRate, overheadPercent: (freeRate / guidedRate - 1) * 100,
    sameText: freeText == guidedText, sameJSON: freeJSON != nil && freeJSON == guidedJSON,
    freeDecodes: freeJSON.flatMap { try? MeetingNoteAnalysis($0) } != nil, freeText: freeText,
    guidedText: guidedText)
}
