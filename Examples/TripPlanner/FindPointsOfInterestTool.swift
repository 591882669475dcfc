import LanguageModels

/// Looks up points of interest near the landmark, by category, in the bundled dataset.
///
/// The model decides when to call it and which category suits the landmark (a marina makes sense
/// at the Great Barrier Reef, not in Joshua Tree).
struct FindPointsOfInterestTool: Tool {
  let name = "findPointsOfInterest"
  let description = "Finds points of interest for a landmark, by category."

  /// The landmark the traveller picked.
  let landmark: Landmark

  /// The kinds of place the tool can look up.
  @Generable
  enum Category {
    case campground
    case hotel
    case cafe
    case restaurant
    case museum
    case marina
    case beach
    case nationalMonument
  }

  /// What the model fills in to call the tool.
  @Generable
  struct Arguments {
    @Guide(description: "The kind of place to look for")
    var category: FindPointsOfInterestTool.Category

    @Guide(description: "What the traveller wants from the place, in a few words")
    var naturalLanguageQuery: String
  }

  func call(arguments: Arguments) async throws -> String {
    let key = "\(arguments.category)"
    let names = landmark.pointsOfInterest[key] ?? []
    PlannerOutput.note(
      "looked up \(key) places in \(landmark.name): \(names.isEmpty ? "none" : names.joined(separator: ", "))")
    guard !names.isEmpty else { return "There are no \(key) places listed for \(landmark.name)." }
    return "These \(key) places are in \(landmark.name): \(names.joined(separator: ", "))."
  }
}
