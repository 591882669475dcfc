import CommandLineParsing
import LanguageModels
import SpeechRecognition

/// The options that choose a model, and the numeric options, declared the same way everywhere:
/// help lists every model by name, and a wrong name or number is a usage error that says what is
/// allowed.
enum ModelOptions {
  /// An option naming a speech model; help reads "`purpose`: base, base-q8 (default), tiny.en."
  static func speech(_ name: String, short: Character? = nil, purpose: String) -> Option<SpeechModel> {
    let names = SpeechModel.all.map { $0 == .default ? "\($0.name) (default)" : $0.name }
    return Option(
      name, short: short, value: "model", help: "\(purpose): \(names.joined(separator: ", ")).",
      allowed: SpeechModel.all.map(\.name)
    ) { (text: String) throws(OptionValueError) -> SpeechModel in
      do { return try SpeechModel.named(text) } catch { throw OptionValueError(message: error.localizedDescription) }
    }
  }

  /// An option naming a language model; help reads "`purpose`: qwen-1.5b (default), …".
  static func language(_ name: String, short: Character? = nil, purpose: String) -> Option<LanguageModelWeights> {
    let names = LanguageModelWeights.all.map { $0 == .default ? "\($0.name) (default)" : $0.name }
    return Option(
      name, short: short, value: "model", help: "\(purpose): \(names.joined(separator: ", ")).",
      allowed: LanguageModelWeights.all.map(\.name)
    ) { (text: String) throws(OptionValueError) -> LanguageModelWeights in
      do {
        return try LanguageModelWeights.named(text)
      } catch {
        throw OptionValueError(message: error.localizedDescription)
      }
    }
  }

  /// An option whose value is a whole number in `range`; `example` is a sensible value for messages.
  static func integer(
    _ name: String, short: Character? = nil, value: String, help: String, range: ClosedRange<Int64>, example: Int64
  ) -> Option<Int64> {
    Option(name, short: short, value: value, help: help) { (text: String) throws(OptionValueError) -> Int64 in
      guard let number = Int64(text), range.contains(number) else {
        throw OptionValueError(
          message: "give a whole number from \(range.lowerBound) to \(range.upperBound), such as \(example)")
      }
      return number
    }
  }

  /// An option whose value is a number of seconds above 0.
  static func seconds(_ name: String, short: Character? = nil, help: String) -> Option<Double> {
    Option(name, short: short, value: "seconds", help: help) { (text: String) throws(OptionValueError) -> Double in
      guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
        throw OptionValueError(message: "give a number of seconds above 0, such as 90")
      }
      return seconds
    }
  }
}
