import Foundation

/// A constraint on the values the model may generate for a property, enforced while decoding.
///
/// Use guides in `@Guide`, in ``GenerationSchema/Property`` and in ``DynamicGenerationSchema``:
///
/// ```swift
/// @Guide(description: "Three days of activities", .count(3))
/// var days: [DayPlan]
/// @Guide(.range(1...5))
/// var rating: Int
/// ```
public struct GenerationGuide<Value>: Sendable {
  /// What the guide requires.
  let constraint: GuideConstraint

  init(_ constraint: GuideConstraint) {
    self.constraint = constraint
  }
}

/// What a ``GenerationGuide`` requires, independent of the value type it was written for.
indirect enum GuideConstraint: Sendable, Codable, Equatable {
  /// The string is exactly this value.
  case constant(String)
  /// The string is one of these values.
  case anyOf([String])
  /// The whole string matches this regular expression; `nil` when the source is unknown.
  case pattern(String?)
  /// The number is at least this value.
  case minimum(Double)
  /// The number is at most this value.
  case maximum(Double)
  /// The number lies within these inclusive bounds.
  case range(Double, Double)
  /// The array has exactly this many elements.
  case count(Int)
  /// The array's element count lies within these inclusive bounds.
  case countRange(Int, Int)
  /// The array has at least this many elements.
  case minimumCount(Int)
  /// The array has at most this many elements.
  case maximumCount(Int)
  /// Every element of the array follows this guide.
  case element(GuideConstraint)

  /// Whether the guide bounds a number.
  var isNumeric: Bool {
    switch self {
    case .minimum, .maximum, .range: true
    default: false
    }
  }

  /// The guide's name as written in Swift, for messages.
  var name: String {
    switch self {
    case .constant: "constant"
    case .anyOf: "anyOf"
    case .pattern: "pattern"
    case .minimum: "minimum"
    case .maximum: "maximum"
    case .range: "range"
    case .count, .countRange: "count"
    case .minimumCount: "minimumCount"
    case .maximumCount: "maximumCount"
    case .element: "element"
    }
  }
}

// MARK: - Strings

extension GenerationGuide where Value == String {
  /// Requires the string to be exactly the given value.
  ///
  /// - Parameter value: The only value the model may generate.
  public static func constant(_ value: String) -> GenerationGuide<String> {
    GenerationGuide(.constant(value))
  }

  /// Requires the string to be one of the given values.
  ///
  /// - Parameter values: The values the model may choose from.
  public static func anyOf(_ values: [String]) -> GenerationGuide<String> {
    GenerationGuide(.anyOf(values))
  }

  /// Requires the whole string to match a regular expression.
  ///
  /// The pattern text is taken from a regex literal (`/[A-Z]{3}-[0-9]+/`) or a `Regex` built from a
  /// string. A `Regex` built with RegexBuilder has no source text: use ``pattern(_:)-(String)`` then.
  /// See ``pattern(_:)-(String)`` for the syntax that can be enforced.
  ///
  /// - Parameter regex: The regular expression.
  public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
    GenerationGuide(.pattern(regex._literalPattern))
  }

  /// Requires the whole string to match a regular expression given as text.
  ///
  /// The pattern is enforced while decoding by llama.cpp's JSON-Schema converter, which handles this
  /// subset: literals, `.`, character classes `[a-z]` and `[^...]`, groups `(...)` and `(?:...)`,
  /// alternation `|`, and the quantifiers `*`, `+`, `?`, `{n}`, `{n,}` and `{n,m}`. `\d`, `\w` and
  /// `\s` are rewritten to classes (`\s` as a space). Lookarounds, backreferences, inline flags,
  /// anchors inside the pattern and `\b`, `\D`, `\W`, `\S` are not supported: generation throws
  /// `unsupportedGuide` for them. `^` and `$` around the whole pattern are optional.
  ///
  /// - Parameter source: The regular expression's text, such as `"[A-Z]{3}-[0-9]+"`.
  public static func pattern(_ source: String) -> GenerationGuide<String> {
    GenerationGuide(.pattern(source))
  }
}

// MARK: - Numbers

extension GenerationGuide where Value == Int {
  /// Requires the integer to be at least the given value.
  ///
  /// - Parameter value: The smallest allowed value.
  public static func minimum(_ value: Int) -> GenerationGuide<Int> {
    GenerationGuide(.minimum(Double(value)))
  }

  /// Requires the integer to be at most the given value.
  ///
  /// - Parameter value: The largest allowed value.
  public static func maximum(_ value: Int) -> GenerationGuide<Int> {
    GenerationGuide(.maximum(Double(value)))
  }

  /// Requires the integer to lie within an inclusive range.
  ///
  /// - Parameter range: The allowed values.
  public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
    GenerationGuide(.range(Double(range.lowerBound), Double(range.upperBound)))
  }
}

extension GenerationGuide where Value == Double {
  /// Requires the number to be at least the given value.
  ///
  /// - Parameter value: The smallest allowed value.
  public static func minimum(_ value: Double) -> GenerationGuide<Double> {
    GenerationGuide(.minimum(value))
  }

  /// Requires the number to be at most the given value.
  ///
  /// - Parameter value: The largest allowed value.
  public static func maximum(_ value: Double) -> GenerationGuide<Double> {
    GenerationGuide(.maximum(value))
  }

  /// Requires the number to lie within an inclusive range.
  ///
  /// - Parameter range: The allowed values.
  public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
    GenerationGuide(.range(range.lowerBound, range.upperBound))
  }
}

extension GenerationGuide where Value == Float {
  /// Requires the number to be at least the given value.
  ///
  /// - Parameter value: The smallest allowed value.
  public static func minimum(_ value: Float) -> GenerationGuide<Float> {
    GenerationGuide(.minimum(Double(value)))
  }

  /// Requires the number to be at most the given value.
  ///
  /// - Parameter value: The largest allowed value.
  public static func maximum(_ value: Float) -> GenerationGuide<Float> {
    GenerationGuide(.maximum(Double(value)))
  }

  /// Requires the number to lie within an inclusive range.
  ///
  /// - Parameter range: The allowed values.
  public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
    GenerationGuide(.range(Double(range.lowerBound), Double(range.upperBound)))
  }
}

extension GenerationGuide where Value == Decimal {
  /// Requires the number to be at least the given value.
  ///
  /// - Parameter value: The smallest allowed value.
  public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> {
    GenerationGuide(.minimum(Double(truncating: value as NSDecimalNumber)))
  }

  /// Requires the number to be at most the given value.
  ///
  /// - Parameter value: The largest allowed value.
  public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> {
    GenerationGuide(.maximum(Double(truncating: value as NSDecimalNumber)))
  }

  /// Requires the number to lie within an inclusive range.
  ///
  /// - Parameter range: The allowed values.
  public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
    GenerationGuide(
      .range(
        Double(truncating: range.lowerBound as NSDecimalNumber), Double(truncating: range.upperBound as NSDecimalNumber)
      ))
  }
}

// MARK: - Arrays

extension GenerationGuide {
  /// Requires the array to have exactly the given number of elements.
  ///
  /// - Parameter count: The number of elements.
  public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
    GenerationGuide<[Element]>(.count(count))
  }

  /// Requires the array's number of elements to lie within an inclusive range.
  ///
  /// - Parameter count: The allowed numbers of elements.
  public static func count<Element>(_ count: ClosedRange<Int>) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>(.countRange(count.lowerBound, count.upperBound))
  }

  /// Requires the array to have at least the given number of elements.
  ///
  /// - Parameter count: The fewest elements allowed.
  public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
    GenerationGuide<[Element]>(.minimumCount(count))
  }

  /// Requires the array to have at most the given number of elements.
  ///
  /// - Parameter count: The most elements allowed.
  public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
    GenerationGuide<[Element]>(.maximumCount(count))
  }

  /// Applies a guide to every element of the array.
  ///
  /// ```swift
  /// @Guide(.element(.range(1...5)))
  /// var ratings: [Int]
  /// ```
  ///
  /// - Parameter guide: The guide for each element.
  public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>(.element(guide.constraint))
  }
}

extension GenerationGuide where Value == [String] {
  /// Requires the array to have exactly the given number of elements.
  ///
  /// This overload lets `@Guide(.count(3))` type-check where nothing names the element type; the
  /// guide applies to arrays of any element type.
  ///
  /// - Parameter count: The number of elements.
  public static func count(_ count: Int) -> GenerationGuide<[String]> {
    GenerationGuide(.count(count))
  }

  /// Requires the array's number of elements to lie within an inclusive range.
  ///
  /// - Parameter count: The allowed numbers of elements.
  public static func count(_ count: ClosedRange<Int>) -> GenerationGuide<[String]> {
    GenerationGuide(.countRange(count.lowerBound, count.upperBound))
  }

  /// Requires the array to have at least the given number of elements.
  ///
  /// - Parameter count: The fewest elements allowed.
  public static func minimumCount(_ count: Int) -> GenerationGuide<[String]> {
    GenerationGuide(.minimumCount(count))
  }

  /// Requires the array to have at most the given number of elements.
  ///
  /// - Parameter count: The most elements allowed.
  public static func maximumCount(_ count: Int) -> GenerationGuide<[String]> {
    GenerationGuide(.maximumCount(count))
  }
}
