// The shapes of Apple's FoundationModels documentation ("Generating content and performing tasks
// with Foundation Models", "Expanding generation with tool calling", availability): our own
// code in those shapes; only the import differs (FoundationModels -> LanguageModels).

import Foundation
import LanguageModels

@Generable(description: "Basic profile information about a cat")
struct CatProfile {
  var name: String

  @Guide(description: "The age of the cat", .range(0...20))
  var age: Int

  @Guide(description: "A one sentence profile about the cat's personality")
  var profile: String
}

/// A tool that returns a list, as the documentation's contacts tool does.
struct FindContacts: Tool {
  let name = "findContacts"
  let description = "Finds a specific number of contacts"

  @Generable
  struct Arguments {
    @Guide(description: "The number of contacts to get", .range(1...10))
    let count: Int
  }

  let contacts = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson"]

  func call(arguments: Arguments) async throws -> [String] {
    Array(contacts.prefix(arguments.count))
  }
}

/// What the app shows for each availability state, as the documentation's switch decides it.
func availabilityMessage(for model: SystemLanguageModel = SystemLanguageModel.default) -> String {
  switch model.availability {
  case .available:
    return "ready"
  case .unavailable(.deviceNotEligible):
    return "This device cannot run the model."
  case .unavailable(.appleIntelligenceNotEnabled):
    return "Turn on the model in settings."
  case .unavailable(.modelNotReady):
    return "The model is downloading; try again later."
  case .unavailable(let other):
    return "Unavailable: \(other)"
  }
}

/// The prompts and answers of a session, read from its transcript.
func conversation(of session: LanguageModelSession) -> [String] {
  session.transcript.compactMap { entry in
    switch entry {
    case .prompt(let prompt):
      return "user: "
        + prompt.segments.compactMap { segment in
          if case .text(let text) = segment { return text.content }
          return nil
        }.joined()
    case .response(let response):
      return "model: "
        + response.segments.compactMap { segment in
          if case .text(let text) = segment { return text.content }
          return nil
        }.joined()
    case .toolCalls(let calls):
      return "tools: " + calls.map(\.toolName).joined(separator: ", ")
    case .instructions, .toolOutput:
      return nil
    }
  }
}

/// A rescue cat, generated with the documented call; a context overflow is reported, not thrown.
func generateCat(options: GenerationOptions = GenerationOptions(sampling: .random(top: 10, seed: 7))) async throws
  -> CatProfile?
{
  let session = LanguageModelSession(model: SystemLanguageModel(useCase: .general))
  do {
    let response = try await session.respond(
      to: "Generate a cute rescue cat", generating: CatProfile.self, options: options)
    return response.content
  } catch LanguageModelSession.GenerationError.exceededContextWindowSize {
    return nil
  }
}
