/// A type the model can generate, with a schema that constrains its output while decoding.
///
/// Conform with the `@Generable` macro, and describe and constrain properties with `@Guide`:
///
/// ```swift
/// @Generable(description: "A plan for one day of a trip")
/// struct DayPlan {
///   @Guide(description: "A short title for the day")
///   var title: String
///   @Guide(.count(3))
///   var activities: [Activity]
/// }
/// ```
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
  /// The type streaming snapshots produce while a value is being generated: for `@Generable`
  /// structures, a structure with every property optional.
  associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent = Self

  /// The schema describing this type's properties and the guides on their values.
  static var generationSchema: GenerationSchema { get }

  /// This value as its partially generated counterpart, with every property present.
  func asPartiallyGenerated() -> PartiallyGenerated
}

extension Generable where PartiallyGenerated == Self {
  /// This value itself: a type that is its own partially generated counterpart.
  public func asPartiallyGenerated() -> Self { self }
}
