// Seed 004 (the WWDC25 code-along "Bring on-device AI to your app using the Foundation Models
// framework") shows its code on screen only; these files are written in the shape of Apple's
// published sample for it, with the import FoundationModels -> LanguageModels. The landmarks
// here are our own small data set.

import Foundation

struct Landmark: Identifiable, Hashable {
  let id: Int
  let name: String
  let description: String
}

enum ModelData {
  static let landmarks = [
    Landmark(
      id: 1, name: "Joshua Tree",
      description:
        "A desert park where two deserts meet, known for its twisted Joshua trees, granite boulders and dark night skies."
    ),
    Landmark(
      id: 2, name: "Mount Fuji",
      description: "Japan's highest mountain, a snow-capped volcano with lakes, hot springs and trails at its foot."),
    Landmark(
      id: 3, name: "Great Barrier Reef",
      description:
        "The world's largest coral reef system, off the coast of Queensland, with islands, beaches and marinas."),
  ]

  static let landmarkNames = landmarks.map(\.name)
}
