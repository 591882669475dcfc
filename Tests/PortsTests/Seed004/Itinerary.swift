// Seed 004: the generable itinerary, in the shape of Apple's sample.

import Foundation
import LanguageModels

@Generable
struct Itinerary: Equatable {
  @Guide(description: "An exciting name for the trip.")
  let title: String

  @Guide(.anyOf(ModelData.landmarkNames))
  let destinationName: String

  let description: String

  @Guide(description: "An explanation of how the itinerary meets the person's special requests.")
  let rationale: String

  @Guide(description: "A list of day-by-day plans.")
  @Guide(.count(3))
  let days: [DayPlan]
}

@Generable
struct DayPlan: Equatable {
  @Guide(description: "A unique and exciting name for this day plan.")
  let title: String
  let subtitle: String
  let destination: String

  @Guide(.count(3))
  let activities: [Activity]
}

@Generable
struct Activity: Equatable {
  let type: Kind
  let title: String
  let description: String
}

@Generable
enum Kind {
  case sightseeing
  case foodAndDining
  case shopping
  case hotelAndLodging
}

extension Itinerary {
  static let exampleTripToJapan = Itinerary(
    title: "Onsen Trip to Japan",
    destinationName: "Mount Fuji",
    description: "Sights and scenes of Mount Fuji.",
    rationale: "You are traveling with your family, so the trip is relaxed, with time to rest at a hot spring.",
    days: [
      DayPlan(
        title: "Sushi and Sightseeing",
        subtitle: "Spend the day exploring the lakes at the foot of the mountain.",
        destination: "Lake Kawaguchi",
        activities: [
          Activity(type: .sightseeing, title: "Lakeside walk", description: "A walk with views of the mountain."),
          Activity(type: .foodAndDining, title: "Sushi lunch", description: "Fresh fish near the lake."),
          Activity(type: .hotelAndLodging, title: "Ryokan stay", description: "A traditional inn with a hot spring."),
        ]),
      DayPlan(
        title: "Mountain Morning",
        subtitle: "Climb to the fifth station.",
        destination: "Fuji Subaru Line 5th Station",
        activities: [
          Activity(type: .sightseeing, title: "Fifth station", description: "Views across the clouds."),
          Activity(type: .shopping, title: "Souvenirs", description: "Local crafts and snacks."),
          Activity(type: .foodAndDining, title: "Noodle dinner", description: "Hoto noodles, a local dish."),
        ]),
      DayPlan(
        title: "Hot Springs",
        subtitle: "Rest before the trip home.",
        destination: "Hakone",
        activities: [
          Activity(type: .hotelAndLodging, title: "Onsen morning", description: "A long soak."),
          Activity(type: .sightseeing, title: "Open-air museum", description: "Sculpture in the hills."),
          Activity(type: .foodAndDining, title: "Farewell dinner", description: "A tasting menu."),
        ]),
    ])
}
