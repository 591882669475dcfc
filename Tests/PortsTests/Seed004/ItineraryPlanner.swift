// Seed 004: the planner, in the shape of Apple's sample: instructions built with the builder
// (strings, the tool's categories, an example @Generable itinerary), a session with the tool,
// and the itinerary streamed with streamResponse(generating:includeSchemaInPrompt:options:) { }.

import Foundation
import LanguageModels

@Observable
@MainActor
final class ItineraryPlanner {
  private(set) var itinerary: Itinerary.PartiallyGenerated?
  private var session: LanguageModelSession

  var error: Error?
  let landmark: Landmark
  let pointOfInterestTool: FindPointsOfInterestTool

  init(landmark: Landmark) {
    self.landmark = landmark
    let pointOfInterestTool = FindPointsOfInterestTool(landmark: landmark)
    self.pointOfInterestTool = pointOfInterestTool
    self.session = LanguageModelSession(
      tools: [pointOfInterestTool],
      instructions: Instructions {
        "Your job is to create an itinerary for the user."
        "Each day needs an activity, hotel and restaurant."
        """
        Always use the findPointsOfInterest tool to find businesses \
        and activities in \(landmark.name), especially hotels \
        and restaurants.

        The point of interest categories may include:
        """
        FindPointsOfInterestTool.categories
        """
        Here is a description of \(landmark.name) for your reference \
        when considering what activities to generate:
        """
        landmark.description
        "Here is an example of the desired format, but don't copy its content:"
        Itinerary.exampleTripToJapan
      }
    )
  }

  func suggestItinerary(dayCount: Int) async throws {
    let stream = session.streamResponse(
      generating: Itinerary.self,
      includeSchemaInPrompt: false,
      options: GenerationOptions(sampling: .greedy)
    ) {
      "Generate a \(dayCount)-day itinerary to \(landmark.name)."
      "Give it a fun title and description."
    }
    for try await partialResponse in stream {
      itinerary = partialResponse.content
    }
  }

  func prewarm() {
    session.prewarm()
  }
}
