import Foundation

/// A place the planner knows, with points of interest by category (from landmarks.json).
struct Landmark: Decodable, Sendable {
  /// The landmark's name, as people type it.
  var name: String
  /// Where it is.
  var region: String
  /// A sentence or two about it.
  var summary: String
  /// Point-of-interest names by category (`campground`, `hotel`, `cafe`...).
  var pointsOfInterest: [String: [String]]

  /// Every landmark in the bundled dataset.
  static func all() throws -> [Landmark] {
    guard let url = Bundle.module.url(forResource: "landmarks", withExtension: "json") else {
      throw PlannerError.missingDataset
    }
    return try JSONDecoder().decode([Landmark].self, from: Data(contentsOf: url))
  }
}
