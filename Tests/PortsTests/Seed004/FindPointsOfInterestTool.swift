// Seed 004: the points-of-interest tool, in the shape of Apple's sample; its nested @Generable
// `Category` is used unqualified by its sibling `Arguments`. Our own small table stands in for
// the sample's MapKit search.

import Foundation
import LanguageModels

@Observable
final class FindPointsOfInterestTool: Tool {
  let name = "findPointsOfInterest"
  let description = "Finds points of interest for a landmark."

  let landmark: Landmark
  @MainActor var lookupHistory: [Lookup] = []

  init(landmark: Landmark) {
    self.landmark = landmark
  }

  @Generable
  enum Category: String, CaseIterable {
    case campground
    case hotel
    case cafe
    case museum
    case marina
    case restaurant
    case nationalMonument
  }

  static let categories = Category.allCases.map { $0.rawValue }

  @Generable
  struct Arguments {
    @Guide(description: "This is the type of destination to look up for.")
    let pointOfInterest: Category

    @Guide(description: "The natural language query of what to search for.")
    let naturalLanguageQuery: String
  }

  struct Lookup: Identifiable {
    let id = UUID()
    let history: Arguments
  }

  @MainActor func recordLookup(arguments: Arguments) {
    lookupHistory.append(Lookup(history: arguments))
  }

  func call(arguments: Arguments) async throws -> String {
    await recordLookup(arguments: arguments)
    let results = mapItems(arguments: arguments)
    return "There are these \(arguments.pointOfInterest) in \(landmark.name): \(results.joined(separator: ", "))"
  }

  private func mapItems(arguments: Arguments) -> [String] {
    switch arguments.pointOfInterest {
    case .campground: ["Jumbo Rocks Campground", "Indian Cove Campground"]
    case .hotel: ["Desert Lodge", "Oasis Inn"]
    case .cafe: ["Crossroads Cafe", "Natural Sisters Cafe"]
    case .museum: ["Old Schoolhouse Museum"]
    case .marina: ["Palm Marina"]
    case .restaurant: ["Pappy and Harriet's", "La Copine"]
    case .nationalMonument: ["Keys View", "Skull Rock"]
    }
  }
}
