import Foundation
import LanguageModels

/// Seed 004's trip planner in a terminal: `swift run TripPlanner "Joshua Tree"`.
///
/// Checks that the model is available (and says what to do when it is not), prewarms the
/// session, and streams a three-day itinerary while the model looks up points of interest with
/// a tool.
@main
struct TripPlanner {
  static func main() async {
    do {
      try await run(landmarkName: CommandLine.arguments.dropFirst().first ?? "Joshua Tree")
    } catch {
      let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
      FileHandle.standardError.write(Data("TripPlanner: error: \(message)\n".utf8))
      exit(1)
    }
  }

  static func run(landmarkName: String) async throws {
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
      print("(This machine cannot run the language model, so there is no itinerary; here is the landmark instead.)")
      return
    case .unavailable(.appleIntelligenceNotEnabled):
      print("Trip planning is turned off. Unset VOICENOTES_LANGUAGE_MODEL to turn it on.")
      return
    case .unavailable(.modelNotReady):
      print(
        "The language model is not installed yet. Run `voicenotes models install \(model.weights.name)` and try again.")
      return
    }

    let session = LanguageModelSession(model: model, tools: [FindPointsOfInterestTool(landmark: landmark)]) {
      "Your job is to create an itinerary for the user."
      "Each day needs an activity, hotel and restaurant."
      "Always use the findPointsOfInterest tool to find businesses and activities in \(landmark.name)."
      "Here is a description of \(landmark.name) for your reference: \(landmark.summary)"
    }
    session.prewarm()
    PlannerOutput.note("planning a trip to \(landmark.name) with \(model.weights.name)…")

    let started = Date()
    let stream = session.streamResponse(
      to: "Generate a 3-day itinerary to \(landmark.name). Give it a fun title and description.",
      generating: Itinerary.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 1200))
    var drawn = 0
    for try await snapshot in stream where PlannerOutput.isTerminal {
      let lines = PlannerOutput.lines(for: snapshot.content)
      PlannerOutput.redraw(lines, replacing: drawn)
      drawn = lines.count
    }
    let itinerary = try await stream.collect().content
    if !PlannerOutput.isTerminal {
      PlannerOutput.redraw(PlannerOutput.lines(for: itinerary.asPartiallyGenerated()), replacing: 0)
    }
    PlannerOutput.note(String(format: "done in %.0f s", Date().timeIntervalSince(started)))
  }
}
