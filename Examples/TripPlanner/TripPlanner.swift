import Foundation
import LanguageModels

/// Seed 004's trip planner in a terminal: `swift run TripPlanner "Joshua Tree"`.
///
/// Checks that the model is available (and says what to do when it is not), prewarms the
/// session, and streams a three-day itinerary while the model looks up points of interest with
/// a tool.
@main
struct TripPlanner {
  static let usage = """
    Usage: TripPlanner [LANDMARK]

    Plans a three-day trip to LANDMARK (default: Joshua Tree) with the local language model,
    streaming the itinerary as it is written; the model looks up places with a tool.

    Options:
      -h, --help   Show this help.

    Environment:
      VOICENOTES_LANGUAGE_MODEL=off|deviceNotEligible|modelNotReady   try the unavailable paths
      VOICENOTES_MODELS=DIR                                           where the models are

    Exit status: 0 with an itinerary, 1 when there is none (unknown landmark, model unavailable),
    2 for a usage error.
    """

  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.contains("-h") || arguments.contains("--help") {
      print(usage)
      return
    }
    if let option = arguments.first(where: { $0.hasPrefix("-") }) {
      FileHandle.standardError.write(
        Data("TripPlanner: error: unknown option '\(option)'; see TripPlanner --help\n".utf8))
      exit(2)
    }
    guard arguments.count <= 1 else {
      FileHandle.standardError.write(
        Data("TripPlanner: error: one landmark at a time; quote a name with spaces (\"Joshua Tree\")\n".utf8))
      exit(2)
    }
    do {
      guard try await run(landmarkName: arguments.first ?? "Joshua Tree") else { exit(1) }
    } catch {
      let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
      FileHandle.standardError.write(Data("TripPlanner: error: \(message)\n".utf8))
      exit(1)
    }
  }

  /// Plans the trip; false when there is no itinerary because the model is unavailable (what to
  /// do instead has been printed).
  static func run(landmarkName: String) async throws -> Bool {
    let landmarks = try Landmark.all()
    guard let landmark = landmarks.first(where: { $0.name.lowercased() == landmarkName.lowercased() }) else {
      throw PlannerError.unknownLandmark(landmarkName, known: landmarks.map(\.name))
    }

    let model = SystemLanguageModel.default
    switch model.availability {
    case .available:
      break
    case .unavailable(.deviceNotEligible):
      print("\(landmark.name): \(landmark.summary)")
      PlannerOutput.note("This machine cannot run the language model, so there is no itinerary; here is the landmark.")
      return false
    case .unavailable(.appleIntelligenceNotEnabled):
      PlannerOutput.note("Trip planning is turned off. Unset VOICENOTES_LANGUAGE_MODEL to turn it on.")
      return false
    case .unavailable(.modelNotReady):
      if let weights = model.weights {
        PlannerOutput.note(
          "The language model is not installed yet. Run `voicenotes models install \(weights.name)` and try again.")
      } else {
        PlannerOutput.note("The language model is not ready: \(model.unavailabilityExplanation ?? "no reason given").")
      }
      return false
    }

    let session = LanguageModelSession(model: model, tools: [FindPointsOfInterestTool(landmark: landmark)]) {
      "Your job is to create an itinerary for the user."
      "Each day needs an activity, hotel and restaurant."
      "Always use the findPointsOfInterest tool to find businesses and activities in \(landmark.name)."
      "Here is a description of \(landmark.name) for your reference: \(landmark.summary)"
    }
    session.prewarm()
    PlannerOutput.note("planning a trip to \(landmark.name) with \(model.backend.displayName)…")

    let started = Date()
    let stream = session.streamResponse(
      to: "Generate a 3-day itinerary to \(landmark.name). Give it a fun title and description.",
      generating: Itinerary.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 1200))
    var screen = PlannerOutput.StreamState()
    for try await snapshot in stream where PlannerOutput.isTerminal {
      PlannerOutput.stream(PlannerOutput.lines(for: snapshot.content), state: &screen)
    }
    let itinerary = PlannerOutput.lines(for: try await stream.collect().content.asPartiallyGenerated())
    if PlannerOutput.isTerminal {
      PlannerOutput.finish(itinerary, state: &screen)
    } else {
      PlannerOutput.print(itinerary)
    }
    PlannerOutput.note(String(format: "done in %.0f s", Date().timeIntervalSince(started)))
    return true
  }
}
