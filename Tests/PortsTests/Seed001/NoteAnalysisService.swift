// swift-format-ignore-file
// (The seed's code is kept exactly as its authors wrote it.)
// Seeds 000 and 001 (chapters 7 and 8): the note analysis service as the chapters write it. Only
// the import changed: FoundationModels -> LanguageModels.

import Foundation
import LanguageModels

enum NoteAnalysisError: LocalizedError {
  case missingTranscript
  case transcriptTooLarge

  var errorDescription: String? {
    switch self {
    case .missingTranscript:
      "No transcript is available to analyze."
    case .transcriptTooLarge:
      "This transcript is too long for the current model."
    }
  }
}

struct NoteAnalysisService {
  func determineTitle(transcript: String) async throws -> String {
    let trimmedTitle = transcript.trimmingCharacters(in: .whitespacesAndNewlines)

    guard !trimmedTitle.isEmpty else {
      return "" 
    }

    let session = LanguageModelSession()
    let prompt = """
      Analyze the following voice note transcription. Create a concise title of
      a few words.

      Transcription: \(trimmedTitle)
      """
    let response = try await session.respond(to: prompt)
    return response.content
  }

  private func fitsInContext(_ prompt: String) async -> Bool {
    let tokenLength: Int
    // 1
    let promptRatio = 0.33

    // 2
    if #available(iOS 26.4, *) {
      // 3
      let promptCalc = try? await
        SystemLanguageModel.default.tokenCount(for: prompt)
      if let promptCalc = promptCalc {
        tokenLength = promptCalc
      } else {
        tokenLength = prompt.count * 3 / 4
      }
    } else {
      // 4
      tokenLength = prompt.count * 3 / 4
    }
    
    // 5
    return tokenLength < Int(Double(SystemLanguageModel.default.contextSize) * promptRatio)
  }

  func analyze(transcript: String) async throws -> NoteAnalysis {
    // 1
    guard !transcript.isEmpty else {
      throw NoteAnalysisError.missingTranscript
    }

    // 2
    let session = LanguageModelSession()
    let prompt = """
      Analyze the following voice note transcription.

      Create:
      - A concise title of a few words
      - A two to three-sentence summary focused on the overall topic and
        key points.
      - Up to five short lowercase tags, each one up to three words.
      - Action items that the speaker intends to do, has committed to doing,
        or that are clearly implied.
      - A list of people mentioned in the note

      Do not invent details, deadlines, assignees, or people.
      If no action items are present, return an empty actionItems array.
      If no people are mentioned, return an empty people array.

      Transcription: \(transcript)
      """

    // 3
    guard await fitsInContext(prompt) else {
      throw NoteAnalysisError.transcriptTooLarge
    }

    // 4
    let response = try await session.respond(to: prompt, generating: NoteAnalysis.self)
    // 5
    #if DEBUG
    if #available(iOS 26.4, *) {
      let promptSize = (try? await
        SystemLanguageModel.default.tokenCount(for: prompt)) ?? 0
      let responseSize = SystemLanguageModel.default.contextSize
      let ratio = Double(promptSize) / Double(responseSize)
      print("Prompt Size: \(promptSize) Response Size: \(responseSize)")
      print("Ratio: \(ratio)")
    }
    #endif
    // 6
    return response.content
  }
}
