/// Makes a structure or enumeration `Generable`: the model can generate its values, guided by a
/// schema built from its stored properties (or cases) and their `@Guide`s.
///
/// The macro adds `generationSchema`, `init(_:)` from generated content, `generatedContent` and,
/// for a structure, a `PartiallyGenerated` counterpart with every property optional that
/// streaming snapshots produce.
///
/// ```swift
/// @Generable(description: "A trip itinerary")
/// struct Itinerary {
///   @Guide(description: "An exciting name for the trip")
///   var title: String
///   @Guide(.count(3))
///   var days: [DayPlan]
/// }
/// ```
///
/// - Parameter description: What the type is, for the model.
@attached(extension, conformances: Generable, names: named(init(_:)), named(generatedContent))
@attached(member, names: arbitrary)
public macro Generable(description: String? = nil) =
  #externalMacro(module: "LanguageModelsMacros", type: "GenerableMacro")

/// Describes a property of a `@Generable` type for the model, and constrains its values.
///
/// ```swift
/// @Guide(description: "Up to five short lowercase topic tags", .count(1...5))
/// var tags: [String]
/// ```
///
/// - Parameters:
///   - description: What the property holds, for the model.
///   - guides: Constraints on the property's values, enforced while decoding.
@attached(peer)
public macro Guide<T: Generable>(description: String? = nil, _ guides: GenerationGuide<T>...) =
  #externalMacro(module: "LanguageModelsMacros", type: "GuideMacro")

/// Describes a property or an enumeration case of a `@Generable` type for the model.
///
/// - Parameter description: What the property or case means, for the model.
@attached(peer)
public macro Guide(description: String) = #externalMacro(module: "LanguageModelsMacros", type: "GuideMacro")

/// Describes a string property of a `@Generable` type and requires its whole value to match a
/// regular expression, enforced while decoding.
///
/// ```swift
/// @Guide(description: "A flight number", /[A-Z]{2}[0-9]{1,4}/)
/// var flight: String
/// ```
///
/// - Parameters:
///   - description: What the property holds, for the model.
///   - guides: The regular expression; see ``GenerationGuide/pattern(_:)-(String)`` for the syntax
///     that can be enforced.
@attached(peer)
public macro Guide<RegexOutput>(description: String? = nil, _ guides: Regex<RegexOutput>) =
  #externalMacro(module: "LanguageModelsMacros", type: "GuideMacro")
