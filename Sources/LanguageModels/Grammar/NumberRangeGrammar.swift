import Foundation

/// GBNF for a JSON number inside a closed range: what llama.cpp's JSON-Schema converter cannot
/// express (it bounds integers only), so that `@Guide(.range(0.5...4.5))` on a `Double` is
/// enforced while decoding rather than checked afterwards.
///
/// A number is written as an optional sign, an integer part with no leading zeros, and up to
/// ``maximumFractionDigits`` decimals. Integer parts strictly inside the range take any decimals;
/// at a bound, the decimals are limited digit by digit.
struct NumberRangeGrammar {
  /// The smallest allowed value.
  let lowerBound: Decimal
  /// The largest allowed value.
  let upperBound: Decimal
  /// Decimals allowed after the point.
  let maximumFractionDigits = 4

  /// The largest integer-part span spelled out as alternatives; wider ranges are rejected.
  static let maximumIntegerAlternatives = 2_000

  /// Creates the grammar for `lowerBound...upperBound`, or nil when the range is empty or too wide.
  init?(lowerBound: Double, upperBound: Double) {
    guard lowerBound <= upperBound, lowerBound.isFinite, upperBound.isFinite,
      upperBound.rounded(.down) - lowerBound.rounded(.up) < Double(Self.maximumIntegerAlternatives)
    else { return nil }
    self.lowerBound = Decimal(string: Self.plain(lowerBound)) ?? Decimal(lowerBound)
    self.upperBound = Decimal(string: Self.plain(upperBound)) ?? Decimal(upperBound)
  }

  /// The rule body (without a name) matching exactly the numbers in range.
  func rule() -> String {
    var alternatives: [String] = []
    // Non-negative values: magnitudes in [max(lower, 0), upper].
    if upperBound >= 0 {
      alternatives += magnitudes(from: max(lowerBound, 0), through: upperBound, sign: "")
    }
    // Negative values: -m with m in (0, -lower] and -m <= upper, i.e. m >= -upper.
    if lowerBound < 0 {
      alternatives += magnitudes(from: max(-upperBound, 0), through: -lowerBound, sign: "\"-\" ")
    }
    return alternatives.isEmpty ? "\"0\"" : "(" + alternatives.joined(separator: " | ") + ")"
  }

  /// Alternatives for magnitudes in `low...high` (both non-negative), each prefixed by `sign`.
  private func magnitudes(from low: Decimal, through high: Decimal, sign: String) -> [String] {
    let lowInteger = Self.integerPart(low)
    let highInteger = Self.integerPart(high)
    let lowFraction = Self.fractionDigits(low)
    let highFraction = Self.fractionDigits(high)
    var result: [String] = []
    if lowInteger == highInteger {
      result.append(sign + "\"\(lowInteger)\" " + fraction(atLeast: lowFraction, atMost: highFraction))
      return result
    }
    result.append(sign + "\"\(lowInteger)\" " + fraction(atLeast: lowFraction, atMost: nil))
    if highInteger - lowInteger > 1 {
      let inner = ((lowInteger + 1)..<highInteger).map { "\"\($0)\"" }.joined(separator: " | ")
      result.append(sign + "(" + inner + ") " + fraction(atLeast: "", atMost: nil))
    }
    result.append(sign + "\"\(highInteger)\" " + fraction(atLeast: "", atMost: highFraction))
    return result
  }

  /// An optional fractional part whose digits, read as a decimal fraction, lie between the two
  /// bounds (digit strings; "" means zero; nil means no upper limit).
  private func fraction(atLeast low: String, atMost high: String?) -> String {
    let digits = maximumFractionDigits
    if low.isEmpty, high == nil { return "(\".\" [0-9]{1,\(digits)})?" }
    if low.isEmpty, let high, high.isEmpty { return "(\".\" \"0\"{1,\(digits)})?" }
    let body = fractionBody(low: Array(low), high: high.map(Array.init), remaining: digits)
    // Without a point the fraction is zero, allowed only when the lower limit is zero.
    return low.isEmpty ? "(\".\" \(body))?" : "\".\" \(body)"
  }

  /// Digit-by-digit GBNF for fractions between `low` and `high`, with at most `remaining` digits.
  private func fractionBody(low: [Character], high: [Character]?, remaining: Int) -> String {
    guard remaining > 0 else { return "\"\"" }
    let lowDigit = low.first.flatMap(\.wholeNumberValue) ?? 0
    let highDigit = high.map { $0.first?.wholeNumberValue ?? 0 } ?? 9
    let restLow = Array(low.dropFirst())
    let restHigh = high.map { Array($0.dropFirst()) }
    let anyTail = remaining > 1 ? " [0-9]{0,\(remaining - 1)}" : ""
    let zeroTail = remaining > 1 ? " \"0\"{0,\(remaining - 1)}" : ""
    var alternatives: [String] = []
    if lowDigit == highDigit {
      let next: String
      if restLow.allSatisfy({ $0 == "0" }) && restHigh == nil {
        next = anyTail
      } else if restLow.allSatisfy({ $0 == "0" }) && (restHigh?.allSatisfy { $0 == "0" } ?? false) {
        next = zeroTail
      } else {
        next = " (" + fractionBody(low: restLow, high: restHigh, remaining: remaining - 1) + ")?"
      }
      return "\"\(lowDigit)\"" + next
    }
    // First digit at the lower limit: the rest must be at least the lower limit's rest.
    if restLow.allSatisfy({ $0 == "0" }) {
      alternatives.append("\"\(lowDigit)\"" + anyTail)
    } else {
      alternatives.append("\"\(lowDigit)\" " + fractionBody(low: restLow, high: nil, remaining: remaining - 1))
    }
    if highDigit - lowDigit > 1 {
      alternatives.append("[\(lowDigit + 1)-\(highDigit - 1)]" + anyTail)
    }
    // First digit at the upper limit: the rest must be at most the upper limit's rest.
    if let restHigh {
      if restHigh.allSatisfy({ $0 == "0" }) {
        alternatives.append("\"\(highDigit)\"" + zeroTail)
      } else {
        alternatives.append(
          "\"\(highDigit)\" (" + fractionBody(low: [], high: restHigh, remaining: remaining - 1) + ")?")
      }
    } else {
      alternatives.append("\"\(highDigit)\"" + anyTail)
    }
    return "(" + alternatives.joined(separator: " | ") + ")"
  }

  private static func integerPart(_ value: Decimal) -> Int {
    var value = value
    var rounded = Decimal()
    NSDecimalRound(&rounded, &value, 0, .down)
    return NSDecimalNumber(decimal: rounded).intValue
  }

  /// The digits after the point of a non-negative decimal ("" for an integer).
  private static func fractionDigits(_ value: Decimal) -> String {
    let text = NSDecimalNumber(decimal: value).stringValue
    guard let point = text.firstIndex(of: ".") else { return "" }
    var digits = String(text[text.index(after: point)...])
    while digits.hasSuffix("0") { digits.removeLast() }
    return digits
  }

  private static func plain(_ value: Double) -> String {
    String(format: "%.10f", value)
  }
}
