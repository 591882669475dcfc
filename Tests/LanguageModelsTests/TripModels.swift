import LanguageModels

@Generable(description: "A travel itinerary")
struct Itinerary: Equatable {
  @Guide(description: "An exciting name for the trip")
  var title: String

  @Guide(description: "A short description of the trip")
  var description: String

  @Guide(description: "Why this plan suits the traveller")
  var rationale: String

  @Guide(description: "One plan per day", .count(3))
  var days: [DayPlan]
}

@Generable(description: "The plan for one day")
struct DayPlan: Equatable {
  @Guide(description: "A unique title for the day")
  var title: String

  @Guide(.count(1...3))
  var activities: [Activity]
}

@Generable
struct Activity: Equatable {
  @Guide(description: "What kind of activity this is")
  var type: ActivityType

  var title: String
}

@Generable(description: "The kind of an activity")
enum ActivityType: Equatable {
  @Guide(description: "Walking outdoors")
  case hiking
  case sightseeing
  case dining
}

@Generable
struct Rating: Equatable {
  @Guide(description: "Stars from one to five", .range(1...5))
  var stars: Int

  var comment: String?

  @Guide(description: "A booking code", .pattern("[A-Z]{3}-\\d{4}"))
  var code: String

  @Guide(/[a-z]+@[a-z]+\.com/)
  var email: String

  @Guide(.minimumCount(1), .maximumCount(4), .element(.anyOf(["good", "bad"])))
  var tags: [String]

  @Guide(.minimum(0.5))
  var weight: Double
}

@Generable
enum Shape: Equatable {
  case circle(radius: Double)
  case label(String, size: Int?)
  case empty
}

@Generable
struct Tracked {
  var id: GenerationID
  var name: String
}
