import LanguageModels

/// A three-day trip plan, generated and streamed by the model.
@Generable(description: "A travel itinerary for a landmark")
struct Itinerary {
  @Guide(description: "An exciting name for the trip")
  var title: String

  @Guide(description: "A short, engaging description of the trip in one or two sentences")
  var description: String

  @Guide(description: "Why this itinerary suits the landmark and the traveller")
  var rationale: String

  @Guide(description: "A plan for each day", .count(3))
  var days: [DayPlan]
}

/// One day of the trip.
@Generable(description: "The plan for one day")
struct DayPlan {
  @Guide(description: "A unique, short title for the day")
  var title: String

  @Guide(description: "Where the day takes place, within the landmark")
  var destination: String

  @Guide(description: "What to do that day", .count(3))
  var activities: [Activity]
}

/// Something to do.
@Generable(description: "An activity during the day")
struct Activity {
  var type: Kind
  var title: String
  var description: String
}

/// The kinds of activity the planner offers.
@Generable(description: "The kind of an activity")
enum Kind {
  case sightseeing
  case foodAndDining
  case shopping
  case hotelAndLodging
}
